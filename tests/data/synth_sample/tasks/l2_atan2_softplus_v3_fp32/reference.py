import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Two-argument arctangent. Input x: 4x16x30x16. Fused: epilogue softplus. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = torch.atan2(x, y)
        y = F.softplus(y)
        return y
