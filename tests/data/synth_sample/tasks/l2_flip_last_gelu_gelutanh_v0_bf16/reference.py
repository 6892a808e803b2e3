import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Reversal of the last axis. Input x: 256x256. Fused: epilogue gelu, epilogue gelutanh. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.flip(x, dims=[-1])
        y = F.gelu(y)
        y = F.gelu(y, approximate='tanh')
        return y
