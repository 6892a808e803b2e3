import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d, subtract a constant, HardSwish, max pooling, Mish."""

    def __init__(self, in_channels, out_channels, kernel_size, subtract_value, pool_kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.subtract_value = subtract_value
        self.pool = pool_kernel_size

    def forward(self, x):
        y = self.conv(x) - self.subtract_value
        y = F.hardswish(y)
        y = F.max_pool2d(y, self.pool)
        return F.mish(y)
