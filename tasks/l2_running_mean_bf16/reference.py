import torch
import torch.nn as nn


class Model(nn.Module):
    """Prefix mean along the last dimension."""

    def forward(self, x):
        count = torch.arange(1, x.shape[-1] + 1, dtype=x.dtype)
        return torch.cumsum(x, dim=-1) / count
