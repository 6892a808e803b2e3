import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """3x3 conv, eval BatchNorm, ReLU. Input x: 5x24x24x28. (float32)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(24, 24, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(24)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return y
