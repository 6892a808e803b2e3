import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Softmin over the last axis. Input x: 2x16x16x14. Fused: epilogue inputmask, epilogue scale. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, mask_e1):
        y = F.softmin(x, dim=-1)
        y = torch.where(mask_e1 > 0, y, torch.zeros_like(y))
        y = y * 0.5
        return y
