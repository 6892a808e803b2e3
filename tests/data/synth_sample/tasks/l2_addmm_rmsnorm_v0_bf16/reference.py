import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """beta * C + alpha * A @ B. Input c: 128x512. Fused: epilogue rmsnorm. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.rms_e1 = nn.Parameter(torch.ones(512))

    def forward(self, c, a, b):
        y = torch.addmm(c, a, b, beta=0.5, alpha=1.0)
        y = y * torch.rsqrt(y.pow(2).mean(-1, keepdim=True) + 1e-6) * self.rms_e1
        return y
