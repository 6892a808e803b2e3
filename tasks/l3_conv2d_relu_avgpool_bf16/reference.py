import torch
import torch.nn as nn


class Model(nn.Module):
    """Conv stage: Conv2d 3x3 (padding 1), ReLU, AvgPool2d(2)."""

    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.pool = nn.AvgPool2d(2)

    def forward(self, x):
        return self.pool(torch.relu(self.conv(x)))
