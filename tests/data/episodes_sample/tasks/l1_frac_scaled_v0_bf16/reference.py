import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Fractional part of 2x (sign of the input). Input x: 128x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.frac(x * 2.0)
        return y
