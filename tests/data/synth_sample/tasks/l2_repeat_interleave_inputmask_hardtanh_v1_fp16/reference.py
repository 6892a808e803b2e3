import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Each element of the last axis repeated twice. Input x: 100x192. Fused: epilogue inputmask, epilogue hardtanh. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, mask_e1):
        y = torch.repeat_interleave(x, 2, dim=-1)
        y = torch.where(mask_e1 > 0, y, torch.zeros_like(y))
        y = F.hardtanh(y, -1.5, 1.5)
        return y
