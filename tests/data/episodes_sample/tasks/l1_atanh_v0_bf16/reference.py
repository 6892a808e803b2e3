import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Inverse hyperbolic tangent on (-0.9, 0.9). Input x: 128x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.atanh(x)
        return y
