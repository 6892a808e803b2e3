import torch
import torch.nn as nn


class Model(nn.Module):
    """Depthwise causal Conv1d (one filter per channel): output t sees inputs t-k+1 .. t."""

    def __init__(self, channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size, groups=channels, padding=kernel_size - 1)

    def forward(self, x):
        return self.conv(x)[..., : x.shape[-1]]
