import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """softmax(q k^T / sqrt(d) + bias) v with a [S, S] bias input. Input q: 5x100x32. Fused: epilogue gelu. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v, bias):
        y = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]) + bias, dim=-1) @ v
        y = F.gelu(y)
        return y
