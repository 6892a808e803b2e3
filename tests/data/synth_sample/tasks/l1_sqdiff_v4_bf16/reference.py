import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """(x - y)^2. Input x: 2x256x640. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = (x - y) * (x - y)
        return y
