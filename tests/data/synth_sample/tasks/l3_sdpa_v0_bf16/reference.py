import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """softmax(q k^T / sqrt(d)) v for one head. Input q: 4x128x128. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        y = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
        return y
