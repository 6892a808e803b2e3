import math
import torch
import torch.nn as nn


class HeadRMSNorm(nn.Module):
    """RMSNorm over the last (head) dimension with a learned gain."""

    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Model(nn.Module):
    """Causal GQA attention on RMS-normalised queries and keys."""

    def __init__(self, head_dim, eps):
        super().__init__()
        self.q_norm = HeadRMSNorm(head_dim, eps)
        self.k_norm = HeadRMSNorm(head_dim, eps)

    def forward(self, q, k, v):
        q = self.q_norm(q)
        k = self.k_norm(k)
        group = q.shape[1] // k.shape[1]
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        s = q.shape[-2]
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
        return torch.matmul(torch.softmax(scores, dim=-1), v)
