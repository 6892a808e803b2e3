import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Causal softmax(q k^T / sqrt(d)) v. Input q: 2x128x80. Fused: epilogue logsigmoid. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        s = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        s = s.masked_fill(torch.ones(s.shape[-2], s.shape[-1], dtype=torch.bool).triu(1), float('-inf'))
        y = torch.softmax(s, dim=-1) @ v
        y = F.logsigmoid(y)
        return y
