import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Reflection padding of H and W by 1. Input x: 3x32x30x32. Fused: epilogue sigmoid. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.pad(x, (1, 1, 1, 1), mode='reflect')
        y = torch.sigmoid(y)
        return y
