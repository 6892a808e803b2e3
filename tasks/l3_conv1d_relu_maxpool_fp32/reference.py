import torch
import torch.nn as nn


class Model(nn.Module):
    """1-D conv stage: Conv1d (kernel 5, padding 2), ReLU, MaxPool1d(2)."""

    def __init__(self, c_in, c_out, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, kernel_size, padding=kernel_size // 2)
        self.pool = nn.MaxPool1d(2)

    def forward(self, x):
        return self.pool(torch.relu(self.conv(x)))
