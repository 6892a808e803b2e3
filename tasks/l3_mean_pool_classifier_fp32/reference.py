import torch
import torch.nn as nn


class Model(nn.Module):
    """Mean-pool a sequence over time (dim 1), then a linear classifier head.
    Returns (logits, pooled features)."""

    def __init__(self, hidden, classes):
        super().__init__()
        self.head = nn.Linear(hidden, classes)

    def forward(self, x):
        pooled = x.mean(dim=1)
        return self.head(pooled), pooled
