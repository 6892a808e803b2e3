import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Sum over axis 1. Input x: 3x100x640. Fused: epilogue hardtanh, epilogue gelutanh, epilogue ressub. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, res_e3):
        y = torch.sum(x, dim=1)
        y = F.hardtanh(y, -1.5, 1.5)
        y = F.gelu(y, approximate='tanh')
        y = y - res_e3
        return y
