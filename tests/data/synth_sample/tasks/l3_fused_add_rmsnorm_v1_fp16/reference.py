import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Returns RMSNorm(x + r) * g and the new residual x + r. Input x: 100x333. (float16)"""

    def __init__(self):
        super().__init__()
        self.g = nn.Parameter(torch.ones(333))

    def forward(self, x, r):
        h = x + r
        y = (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * self.g, h)
        return y
