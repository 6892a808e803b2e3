import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Large output, short contraction. Input a: 128x16. Fused: prologue prescale. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        a = a * 0.5
        y = a @ b
        return y
