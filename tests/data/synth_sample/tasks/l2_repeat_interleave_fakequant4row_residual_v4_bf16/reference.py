import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Each element of the last axis repeated twice. Input x: 256x512. Fused: epilogue fakequant4row, epilogue residual. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, res_e2):
        y = torch.repeat_interleave(x, 2, dim=-1)
        s_e1 = y.abs().amax(-1, keepdim=True).clamp_min(1e-6) / 7.0
        y = torch.round(y / s_e1).clamp(-7, 7) * s_e1
        y = y + res_e2
        return y
