import torch
import torch.nn as nn


class Model(nn.Module):
    """Mean of the token vectors whose mask is 1."""

    def forward(self, x, mask):
        m = mask.to(x.dtype).unsqueeze(-1)
        return (x * m).sum(dim=1) / m.sum(dim=1).clamp(min=1.0)
