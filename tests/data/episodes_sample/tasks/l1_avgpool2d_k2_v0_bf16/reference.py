import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """2x2 average pooling, stride 2. Input x: 2x32x32x16. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.avg_pool2d(x, 2)
        return y
