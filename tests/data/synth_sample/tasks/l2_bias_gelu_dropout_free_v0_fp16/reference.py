import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """gelu(x + b) * 0.9 + r. Input x: 128x512. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, b, r):
        y = F.gelu(x + b) * 0.9 + r
        return y
