import torch
import torch.nn as nn


class Model(nn.Module):
    """r + alpha * (x @ W.T + b), alpha a constant given at construction."""

    def __init__(self, in_features, out_features, alpha):
        super().__init__()
        self.proj = nn.Linear(in_features, out_features)
        self.alpha = alpha

    def forward(self, x, r):
        return r + self.alpha * self.proj(x)
