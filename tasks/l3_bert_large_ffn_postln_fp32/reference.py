import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Post-LN transformer feed-forward: LayerNorm(x + W2 gelu(W1 x + b1) + b2)."""

    def __init__(self, hidden, intermediate):
        super().__init__()
        self.dense1 = nn.Linear(hidden, intermediate)
        self.dense2 = nn.Linear(intermediate, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x):
        return self.norm(x + self.dense2(F.gelu(self.dense1(x))))
