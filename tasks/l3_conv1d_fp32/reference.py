import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv1d with small channel counts, kernel 3, zero padding 1 (length preserved)."""

    def __init__(self, c_in, c_out, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        return self.conv(x)
