import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Inverse hyperbolic sine. Input x: 256x256. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.asinh(x)
        return y
