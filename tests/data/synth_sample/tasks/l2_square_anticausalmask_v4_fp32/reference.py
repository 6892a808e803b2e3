import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Square. Input x: 5x128x512. Fused: epilogue anticausalmask. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.square(x)
        y = y.masked_fill(torch.ones(y.shape[-2], y.shape[-1], dtype=torch.bool).tril(-1), 0.0)
        return y
