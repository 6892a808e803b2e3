import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Running minimum over the last axis. Input x: 128x128. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.cummin(x, dim=-1).values
        return y
