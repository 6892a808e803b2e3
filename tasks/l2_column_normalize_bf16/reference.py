import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Each column divided by max(its L2 norm, 1e-12)."""

    def forward(self, x):
        return F.normalize(x, p=2.0, dim=0, eps=1e-12)
