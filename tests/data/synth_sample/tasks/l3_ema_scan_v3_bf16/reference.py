import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """h_t = a * h_{t-1} + (1 - a) * x_t over the last axis. Input x: 2x32x16. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        h = torch.zeros_like(x[..., 0])
        outs = []
        for t in range(x.shape[-1]):
            h = 0.9 * h + (1.0 - 0.9) * x[..., t]
            outs.append(h)
        y = torch.stack(outs, dim=-1)
        return y
