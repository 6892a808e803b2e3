import torch
import torch.nn as nn


class Model(nn.Module):
    """Row means scaled by a learned per-row gain: mean(x, -1) * gamma."""

    def __init__(self, rows):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(rows))

    def forward(self, x):
        return x.mean(dim=-1) * self.gamma
