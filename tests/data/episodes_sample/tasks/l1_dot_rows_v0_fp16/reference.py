import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Row-wise dot product. Input x: 128x512. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = (x * y).sum(dim=-1)
        return y
