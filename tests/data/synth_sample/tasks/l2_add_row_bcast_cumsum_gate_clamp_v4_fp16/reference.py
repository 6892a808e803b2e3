import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A row vector added to every row. Input x: 4x200x777. Fused: epilogue cumsum, epilogue gate, epilogue clamp. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, b, gate_e2):
        y = x + b
        y = torch.cumsum(y, dim=-1) / math.sqrt(y.shape[-1])
        y = y * torch.sigmoid(gate_e2)
        y = torch.clamp(y, -2.0, 2.0)
        return y
