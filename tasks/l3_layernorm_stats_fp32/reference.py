import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm that also returns its per-row statistics: (y, mean, rstd)."""

    def __init__(self, features, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(features))
        self.bias = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, unbiased=False, keepdim=True)
        rstd = torch.rsqrt(var + self.eps)
        y = (x - mean) * rstd * self.weight + self.bias
        return y, mean.squeeze(-1), rstd.squeeze(-1)
