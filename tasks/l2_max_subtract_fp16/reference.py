import torch
import torch.nn as nn


class Model(nn.Module):
    """Shift each row by its maximum: x - max(x, -1)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x - x.amax(dim=-1, keepdim=True)
