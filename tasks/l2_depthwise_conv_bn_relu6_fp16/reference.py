import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Depthwise 3x3 convolution, BatchNorm (running statistics), ReLU6."""

    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)
        self.bn = nn.BatchNorm2d(channels)

    def forward(self, x):
        return F.relu6(self.bn(self.conv(x)))
