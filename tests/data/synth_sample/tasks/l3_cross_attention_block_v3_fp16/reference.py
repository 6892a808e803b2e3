import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """o(softmax(q(x) k(ctx)^T / sqrt(d)) v(ctx)). Input x: 2x128x128. (float16)"""

    def __init__(self):
        super().__init__()
        self.q = nn.Linear(128, 128, bias=False)
        self.k = nn.Linear(128, 128, bias=False)
        self.v = nn.Linear(128, 128, bias=False)
        self.o = nn.Linear(128, 128, bias=False)

    def forward(self, x, ctx):
        q = self.q(x)
        k = self.k(ctx)
        v = self.v(ctx)
        y = self.o(torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(128), dim=-1) @ v)
        return y
