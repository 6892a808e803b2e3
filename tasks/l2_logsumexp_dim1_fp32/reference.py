import torch
import torch.nn as nn


class Model(nn.Module):
    """Soft maximum over the sequence axis, scaled and shifted."""

    def forward(self, x):
        return torch.logsumexp(x, dim=1) * 0.5 + 1.0
