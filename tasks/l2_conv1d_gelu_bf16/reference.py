import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Same-length Conv1d followed by GELU."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        return F.gelu(self.conv(x))
