import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """exp(x) - 1. Input x: 128x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.expm1(x)
        return y
