import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """1-D convolution, kernel 3, padding 1. Input x: 2x16x128. Fused: prologue preleakyrelu. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 32, 3, padding=1)

    def forward(self, x):
        x = F.leaky_relu(x, 0.1)
        y = self.conv(x)
        return y
