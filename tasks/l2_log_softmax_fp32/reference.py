import torch
import torch.nn as nn


class Model(nn.Module):
    """log_softmax over the last dimension (300 rows: not a multiple of 128)."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.log_softmax(x, dim=-1)
