import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cyclic shift of the last axis. Input x: 100x333. Fused: prologue presilu. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = F.silu(x)
        y = torch.roll(x, 33, dims=-1)
        return y
