import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Expand (1x1) -> depthwise (3x3) -> project (1x1), BatchNorm after each, identity shortcut."""

    def __init__(self, channels, expand_ratio):
        super().__init__()
        hidden = channels * expand_ratio
        self.expand = nn.Conv2d(channels, hidden, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(hidden)
        self.dw = nn.Conv2d(hidden, hidden, 3, padding=1, groups=hidden, bias=False)
        self.bn2 = nn.BatchNorm2d(hidden)
        self.project = nn.Conv2d(hidden, channels, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = F.relu6(self.bn1(self.expand(x)))
        y = F.relu6(self.bn2(self.dw(y)))
        return x + self.bn3(self.project(y))
