import torch
import torch.nn as nn


class Model(nn.Module):
    """softmax(x * scale) over the last dimension."""

    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.softmax(x * self.scale, dim=-1)
