import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.InstanceNorm2d: per (n, c), (x - mean) / sqrt(var + eps) over H, W"""

    def __init__(self, channels):
        super().__init__()
        self.norm = nn.InstanceNorm2d(channels)

    def forward(self, x):
        return self.norm(x)
