import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Elements of x at int32 flat indices. Input x: 128x1024. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        y = torch.take(x, idx)
        return y
