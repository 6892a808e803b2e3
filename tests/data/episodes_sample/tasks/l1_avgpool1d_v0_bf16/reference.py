import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """1-D average pooling, kernel 4, stride 4. Input x: 2x16x256. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.avg_pool1d(x, 4)
        return y
