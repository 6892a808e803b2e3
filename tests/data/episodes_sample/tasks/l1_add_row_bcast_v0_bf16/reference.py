import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A row vector added to every row. Input x: 256x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, b):
        y = x + b
        return y
