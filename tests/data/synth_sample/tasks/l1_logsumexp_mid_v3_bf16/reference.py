import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """log-sum-exp over axis 1. Input x: 4x3x16x32. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.logsumexp(x, dim=1)
        return y
