import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Residual SwiGLU MLP behind an RMSNorm."""

    def __init__(self, d_model, hidden, eps):
        super().__init__()
        self.norm_weight = nn.Parameter(torch.ones(d_model))
        self.gate = nn.Linear(d_model, hidden, bias=False)
        self.up = nn.Linear(d_model, hidden, bias=False)
        self.down = nn.Linear(hidden, d_model, bias=False)
        self.eps = eps

    def forward(self, x):
        h = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.norm_weight
        return x + self.down(F.silu(self.gate(h)) * self.up(h))
