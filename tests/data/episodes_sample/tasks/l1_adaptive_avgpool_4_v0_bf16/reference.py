import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Adaptive average pooling to 4x4. Input x: 2x32x16x32. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.adaptive_avg_pool2d(x, 4)
        return y
