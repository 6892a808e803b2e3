import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Transposed convolution doubling H and W. Input x: 4x32x32x32. Fused: prologue prelayernorm. (float16)"""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(32, 32, 2, stride=2)
        self.pnorm_p1 = nn.LayerNorm(32)

    def forward(self, x):
        x = self.pnorm_p1(x)
        y = self.up(x)
        return y
