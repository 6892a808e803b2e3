import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Hyperbolic cosine. Input x: 300x777. Fused: epilogue softmax. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.cosh(x)
        y = torch.softmax(y, dim=-1)
        return y
