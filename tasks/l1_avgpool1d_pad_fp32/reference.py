import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.AvgPool1d(kernel, stride, padding), count_include_pad=True"""

    def __init__(self, kernel, stride, padding):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel, stride, padding)

    def forward(self, x):
        return self.pool(x)
