import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """softmax(gelu(linear(x)), dim=1)"""

    def __init__(self, fin, fout):
        super().__init__()
        self.linear = nn.Linear(fin, fout)

    def forward(self, x):
        return torch.softmax(F.gelu(self.linear(x)), dim=1)
