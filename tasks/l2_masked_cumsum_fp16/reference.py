import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """cumsum(x * mask) along dim 1; mask holds 0/1."""

    def forward(self, x, mask):
        return torch.cumsum(x * mask.to(x.dtype), dim=1)
