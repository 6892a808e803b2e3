import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Strided 3x3 convolution. Input x: 4x32x32x16. Fused: prologue prermsnorm. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 32, 3, stride=2, padding=1, bias=False)

    def forward(self, x):
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
        y = self.conv(x)
        return y
