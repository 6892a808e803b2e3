import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm(x) * (1 + gamma(c)) + beta(c) with per-sample conditioning projections. Input x: 2x200x80. Fused: epilogue geluerf. (float32)"""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(80, elementwise_affine=False)
        self.gamma = nn.Linear(128, 80)
        self.beta = nn.Linear(128, 80)

    def forward(self, x, c):
        y = self.ln(x) * (1 + self.gamma(c)[:, None, :]) + self.beta(c)[:, None, :]
        y = 0.5 * y * (1.0 + torch.erf(y / math.sqrt(2.0)))
        return y
