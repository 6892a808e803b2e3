import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """4x4 average pooling, stride 4. Input x: 2x32x16x32. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.avg_pool2d(x, 4)
        return y
