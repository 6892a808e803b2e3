import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x + 0.5 * y * z. Input x: 100x333. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y, z):
        y = torch.addcmul(x, y, z, value=0.5)
        return y
