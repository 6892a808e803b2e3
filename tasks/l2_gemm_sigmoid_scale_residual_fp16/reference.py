import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear, then sigmoid(y) * scale added back onto y."""

    def __init__(self, input_size, hidden_size, scaling_factor):
        super().__init__()
        self.gemm = nn.Linear(input_size, hidden_size)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = self.gemm(x)
        return torch.sigmoid(y) * self.scaling_factor + y
