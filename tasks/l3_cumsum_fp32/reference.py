import torch
import torch.nn as nn


class Model(nn.Module):
    """Inclusive prefix sum over the last dimension."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.cumsum(x, dim=-1)
