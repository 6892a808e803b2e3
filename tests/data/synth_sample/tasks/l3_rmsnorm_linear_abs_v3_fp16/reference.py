import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear(RMSNorm(x)). Input x: 128x512. Fused: epilogue abs. (float16)"""

    def __init__(self):
        super().__init__()
        self.g = nn.Parameter(torch.ones(512))
        self.proj = nn.Linear(512, 128, bias=False)

    def forward(self, x):
        y = self.proj(x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.g)
        y = torch.abs(y)
        return y
