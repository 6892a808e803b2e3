import torch
import torch.nn as nn

class Model(nn.Module):
    """out[i] = sum_j x[i, j]"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=-1)
