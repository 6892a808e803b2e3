import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    """T5 layer norm: scale by the root mean square, no mean subtraction, no bias."""

    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Model(nn.Module):
    """Pre-norm gated-GELU feed-forward with a residual connection."""

    def __init__(self, d_model, d_ff, eps):
        super().__init__()
        self.norm = RMSNorm(d_model, eps)
        self.wi_0 = nn.Linear(d_model, d_ff, bias=False)
        self.wi_1 = nn.Linear(d_model, d_ff, bias=False)
        self.wo = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x):
        n = self.norm(x)
        return x + self.wo(F.gelu(self.wi_0(n), approximate="tanh") * self.wi_1(n))
