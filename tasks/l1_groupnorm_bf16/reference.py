import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.GroupNorm over channel groups and space."""

    def __init__(self, groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(groups, channels, eps=1e-5)

    def forward(self, x):
        return self.gn(x)
