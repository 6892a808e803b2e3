import torch
import torch.nn as nn


class Model(nn.Module):
    """Softmax over an awkward width (1000) for an awkward number of rows (200)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)
