import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """softmax(q k^T + table[bucket]) v, unscaled as in T5. Input q: 3x3x100x32. (float16)"""

    def __init__(self):
        super().__init__()
        self.rel = nn.Embedding(32, 3)

    def forward(self, q, k, v, buckets):
        bias = self.rel(buckets).permute(2, 0, 1)
        y = torch.softmax(q @ k.transpose(-2, -1) + bias, dim=-1) @ v
        return y
