import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Row minimum and row maximum (two outputs). Input x: 4x256x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        mn, mx = torch.aminmax(x, dim=-1)
        y = (mn, mx)
        return y
