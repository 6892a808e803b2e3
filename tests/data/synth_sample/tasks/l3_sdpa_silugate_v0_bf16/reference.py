import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """softmax(q k^T / sqrt(d)) v for one head. Input q: 4x128x128. Fused: epilogue silugate. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, res_e1):
        y = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
        y = y * F.silu(res_e1)
        return y
