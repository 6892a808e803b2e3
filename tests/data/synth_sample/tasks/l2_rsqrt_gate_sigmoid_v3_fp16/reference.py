import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Reciprocal square root of positive values. Input x: 4x32x32x32. Fused: epilogue gate, epilogue sigmoid. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, gate_e1):
        y = torch.rsqrt(x)
        y = y * torch.sigmoid(gate_e1)
        y = torch.sigmoid(y)
        return y
