import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ShuffleNet unit: grouped 1x1, depthwise 3x3, channel shuffle, grouped 1x1, identity shortcut."""

    def __init__(self, in_channels, out_channels, groups):
        super().__init__()
        mid = out_channels // 4
        self.groups = groups
        self.conv1 = nn.Conv2d(in_channels, mid, 1, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.conv2 = nn.Conv2d(mid, mid, 3, padding=1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.conv3 = nn.Conv2d(mid, out_channels, 1, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        b, c, h, w = y.shape
        y = y.view(b, self.groups, c // self.groups, h, w).transpose(1, 2).reshape(b, c, h, w)
        y = F.relu(self.bn3(self.conv3(y)))
        return y + x
