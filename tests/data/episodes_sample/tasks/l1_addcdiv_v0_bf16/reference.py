import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x + 0.5 * y / z with positive z. Input x: 128x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y, z):
        y = torch.addcdiv(x, y, z, value=0.5)
        return y
