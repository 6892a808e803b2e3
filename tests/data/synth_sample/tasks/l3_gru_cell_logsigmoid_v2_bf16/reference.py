import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """One GRUCell step. Input x: 100x512. Fused: epilogue logsigmoid. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(512, 16)

    def forward(self, x, h):
        y = self.cell(x, h)
        y = F.logsigmoid(y)
        return y
