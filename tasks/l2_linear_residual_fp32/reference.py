import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear projection plus a residual input: x @ W.T + b + r."""

    def __init__(self, features):
        super().__init__()
        self.proj = nn.Linear(features, features)

    def forward(self, x, r):
        return self.proj(x) + r
