import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Dilated 3x3 convolution, padding 2. Input x: 4x32x16x16. Fused: epilogue gelu, epilogue gelutanh. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(32, 16, 3, padding=2, dilation=2, bias=False)

    def forward(self, x):
        y = self.conv(x)
        y = F.gelu(y)
        y = F.gelu(y, approximate='tanh')
        return y
