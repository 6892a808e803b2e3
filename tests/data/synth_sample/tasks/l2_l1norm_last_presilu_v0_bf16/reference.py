import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Sum of absolute values over the last axis. Input x: 128x256. Fused: prologue presilu. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.silu(x)
        y = x.abs().sum(dim=-1)
        return y
