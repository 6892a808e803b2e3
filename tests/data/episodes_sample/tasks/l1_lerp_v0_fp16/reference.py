import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear interpolation with a fixed weight. Input x: 128x256. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = torch.lerp(x, y, 0.3)
        return y
