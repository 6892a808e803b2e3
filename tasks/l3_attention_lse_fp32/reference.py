import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """One attention head that also returns the per-query log-sum-exp of the scaled scores
    (the statistic a FlashAttention forward pass keeps for its backward pass)."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        lse = torch.logsumexp(scores, dim=-1)
        probs = torch.exp(scores - lse[:, None])
        return torch.matmul(probs, v), lse
