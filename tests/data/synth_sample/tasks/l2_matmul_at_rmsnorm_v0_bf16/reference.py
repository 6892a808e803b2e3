import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A^T @ B with A stored [K, M]. Input a: 256x128. Fused: epilogue rmsnorm. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.rms_e1 = nn.Parameter(torch.ones(256))

    def forward(self, a, b):
        y = torch.matmul(a.T, b)
        y = y * torch.rsqrt(y.pow(2).mean(-1, keepdim=True) + 1e-6) * self.rms_e1
        return y
