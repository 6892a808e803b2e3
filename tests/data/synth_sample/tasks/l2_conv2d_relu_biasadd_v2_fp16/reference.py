import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """3x3 conv, ReLU, per-channel bias. Input x: 2x48x16x32. (float16)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(48, 48, 3)
        self.bias = nn.Parameter(torch.zeros(48, 1, 1))

    def forward(self, x):
        y = torch.relu(self.conv(x)) + self.bias
        return y
