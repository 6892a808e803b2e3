import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Non-causal linear attention. Input q: 3x128x128. Fused: epilogue hardsigmoid. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        fq = F.elu(q) + 1.0
        fk = F.elu(k) + 1.0
        kv = fk.transpose(-2, -1) @ v
        y = (fq @ kv) / (fq @ fk.sum(dim=-2, keepdim=True).transpose(-2, -1) + 1e-6)
        y = F.hardsigmoid(y)
        return y
