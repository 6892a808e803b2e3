import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """3x3 conv, times 2, minimum over channels. Input x: 3x24x14x20. (float32)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(24, 3, 3, padding=1)

    def forward(self, x):
        y = torch.amin(self.conv(x) * 2.0, dim=1, keepdim=True)
        return y
