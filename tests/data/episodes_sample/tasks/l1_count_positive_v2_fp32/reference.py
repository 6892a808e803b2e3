import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Fraction of positive entries of each row. Input x: 2x128x512. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = (x > 0).float().mean(dim=-1)
        return y
