import torch
import torch.nn as nn


class Model(nn.Module):
    """x scaled by the running product of sigmoid gates."""

    def forward(self, x, g):
        return x * torch.cumprod(torch.sigmoid(g), dim=-1)
