import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv2d, ReLU, then an extra learned bias broadcast over the spatial dims."""

    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.zeros(bias_shape))

    def forward(self, x):
        return torch.relu(self.conv(x)) + self.bias
