import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Hyperbolic cosine. Input x: 2x128x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.cosh(x)
        return y
