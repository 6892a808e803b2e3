import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear(RMSNorm(x)). Input x: 200x320. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.g = nn.Parameter(torch.ones(320))
        self.proj = nn.Linear(320, 320, bias=False)

    def forward(self, x):
        y = self.proj(x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.g)
        return y
