import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Remainder of division by a constant, sign of the dividend. Input x: 128x1024. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.fmod(x, 1.5)
        return y
