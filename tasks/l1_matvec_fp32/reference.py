import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """out = a @ v"""

    def __init__(self):
        super().__init__()

    def forward(self, a, v):
        return torch.matmul(a, v)
