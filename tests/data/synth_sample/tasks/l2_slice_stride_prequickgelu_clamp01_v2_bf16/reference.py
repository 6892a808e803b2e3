import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Every second column, from column 1. Input x: 3x200x256. Fused: prologue prequickgelu, epilogue clamp01. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * torch.sigmoid(1.702 * x)
        y = x[..., 1::2].contiguous()
        y = torch.clamp(y, 0.0, 1.0)
        return y
