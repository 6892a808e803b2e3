import torch
import torch.nn as nn


class Model(nn.Module):
    """Maximum and its position over dim 1."""

    def forward(self, x):
        values, indices = torch.max(x, dim=1)
        return values, indices.to(torch.int32)
