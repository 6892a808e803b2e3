import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cube via torch.pow. Input x: 256x256. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.pow(x, 3)
        return y
