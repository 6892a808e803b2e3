import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """2x2 average pooling of an unbatched image. Input x: 16x32x32. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.avg_pool2d(x, 2)
        return y
