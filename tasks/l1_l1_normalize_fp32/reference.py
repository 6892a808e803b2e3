import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Division by the mean absolute value of each row (L1 normalisation)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x / torch.mean(torch.abs(x), dim=-1, keepdim=True)
