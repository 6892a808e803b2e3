import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x clamped elementwise between tensors lo and hi. Input x: 256x256. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, lo, hi):
        y = torch.clamp(x, min=lo, max=hi)
        return y
