import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Image rotated by 90 degrees in the (H, W) plane. Input x: 5x24x30x20. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.rot90(x, 1, dims=(2, 3))
        return y
