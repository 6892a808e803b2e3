import torch
import torch.nn as nn


class Model(nn.Module):
    """Suffix sums along the last dimension."""

    def forward(self, x):
        return torch.cumsum(x.flip(-1), dim=-1).flip(-1)
