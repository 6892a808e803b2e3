import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """One GRUCell step. Input x: 128x128. Fused: epilogue floatmask. (float32)"""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(128, 32)

    def forward(self, x, h, m_e1):
        y = self.cell(x, h)
        y = y * (m_e1 > 0).to(y.dtype)
        return y
