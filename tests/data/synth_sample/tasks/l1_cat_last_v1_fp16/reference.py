import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Concatenation along the last axis. Input x: 100x333. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = torch.cat([x, y], dim=-1)
        return y
