import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """3x3 conv, per-channel multiplier, leaky ReLU, GELU. Input x: 3x48x24x20. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.m = nn.Parameter(torch.ones(48, 1, 1))
        self.conv = nn.Conv2d(48, 48, 3, padding=1)

    def forward(self, x):
        y = F.gelu(F.leaky_relu(self.conv(x) * self.m, 0.01))
        return y
