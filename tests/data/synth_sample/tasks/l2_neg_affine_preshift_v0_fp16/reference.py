import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Multiplication by a scalar. Input x: 128x256. Fused: prologue preshift. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x + 0.25
        y = x * 3.5
        return y
