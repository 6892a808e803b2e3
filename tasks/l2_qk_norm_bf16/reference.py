import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + self.eps) * self.weight


class Model(nn.Module):
    """RMSNorm over head_dim of q [B, S, Hq, D] and k [B, S, Hk, D]."""

    def __init__(self, head_dim):
        super().__init__()
        self.q_norm = RMSNorm(head_dim, 1e-6)
        self.k_norm = RMSNorm(head_dim, 1e-6)

    def forward(self, q, k):
        return self.q_norm(q), self.k_norm(k)
