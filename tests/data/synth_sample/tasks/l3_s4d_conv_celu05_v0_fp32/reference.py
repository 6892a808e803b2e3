import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Kernel K[c, l] = sum_n C B exp(A l), then a causal depthwise convolution of x with K. Input x: 2x16x256. Fused: epilogue celu05. (float32)"""

    def __init__(self):
        super().__init__()
        self.a_log = nn.Parameter(torch.zeros(16, 32))
        self.bm = nn.Parameter(torch.zeros(16, 32))
        self.cm = nn.Parameter(torch.zeros(16, 32))

    def forward(self, x):
        a = -torch.exp(self.a_log)
        t = torch.arange(x.shape[-1], dtype=x.dtype)
        k = ((self.cm * self.bm)[:, :, None] * torch.exp(a[:, :, None] * t)).sum(1)
        y = F.conv1d(F.pad(x, (x.shape[-1] - 1, 0)), k.flip(-1).unsqueeze(1), groups=x.shape[1])
        y = F.celu(y, 0.5)
        return y
