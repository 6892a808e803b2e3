import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Softmin over the last axis. Input x: 2x16x16x14. Fused: prologue prescale, epilogue causalmask, epilogue mish. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x * 0.5
        y = F.softmin(x, dim=-1)
        y = y.masked_fill(torch.ones(y.shape[-2], y.shape[-1], dtype=torch.bool).triu(1), 0.0)
        y = F.mish(y)
        return y
