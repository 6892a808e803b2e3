import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """One GRUCell step. Input x: 128x256. Fused: epilogue clamp. (float16)"""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(256, 12)

    def forward(self, x, h):
        y = self.cell(x, h)
        y = torch.clamp(y, -2.0, 2.0)
        return y
