import torch
import torch.nn as nn


class Model(nn.Module):
    """Standardise a 3-D tensor over its last dim: (x - mean) / sqrt(var + eps), population variance."""

    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = x.var(dim=-1, unbiased=False, keepdim=True)
        return (x - mean) / torch.sqrt(var + self.eps)
