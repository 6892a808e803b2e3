import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """beta * C + alpha * A @ B. Input c: 128x256. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, c, a, b):
        y = torch.addmm(c, a, b, beta=0.5, alpha=1.0)
        return y
