import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Matrix transpose. Input x: 100x333. Fused: epilogue softplus. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x.t().contiguous()
        y = F.softplus(y)
        return y
