import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Clamp to a range. Input x: 4x256x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.clamp(x, -1.0, 1.5)
        return y
