import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Kernel K[c, l] = sum_n C B exp(A l), then a causal depthwise convolution of x with K. Input x: 2x32x256. Fused: epilogue sqdiff. (float16)"""

    def __init__(self):
        super().__init__()
        self.a_log = nn.Parameter(torch.zeros(32, 16))
        self.bm = nn.Parameter(torch.zeros(32, 16))
        self.cm = nn.Parameter(torch.zeros(32, 16))

    def forward(self, x, res_e1):
        a = -torch.exp(self.a_log)
        t = torch.arange(x.shape[-1], dtype=x.dtype)
        k = ((self.cm * self.bm)[:, :, None] * torch.exp(a[:, :, None] * t)).sum(1)
        y = F.conv1d(F.pad(x, (x.shape[-1] - 1, 0)), k.flip(-1).unsqueeze(1), groups=x.shape[1])
        y = (y - res_e1) ** 2
        return y
