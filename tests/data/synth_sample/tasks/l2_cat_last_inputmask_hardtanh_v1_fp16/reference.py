import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Concatenation along the last axis. Input x: 100x333. Fused: epilogue inputmask, epilogue hardtanh. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y, mask_e1):
        y = torch.cat([x, y], dim=-1)
        y = torch.where(mask_e1 > 0, y, torch.zeros_like(y))
        y = F.hardtanh(y, -1.5, 1.5)
        return y
