import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Base-2 logarithm of positive values. Input x: 4x128x256. Fused: prologue presoftsign, epilogue resavg, epilogue silu. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, res_e1):
        x = F.softsign(x)
        y = torch.log2(x)
        y = 0.5 * (y + res_e1)
        y = F.silu(y)
        return y
