import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.BatchNorm2d in eval mode: (x - running_mean) / sqrt(running_var + eps) * weight + bias"""

    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)

    def forward(self, x):
        return self.bn(x)
