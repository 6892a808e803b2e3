import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A times a scalar. Input a: 4x256x128. Fused: epilogue softplus. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, a):
        y = a * -0.75
        y = F.softplus(y)
        return y
