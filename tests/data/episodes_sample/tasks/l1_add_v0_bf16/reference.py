import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Sum of two tensors. Input x: 256x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = x + y
        return y
