import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Absolute value. Input x: 256x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.abs(x)
        return y
