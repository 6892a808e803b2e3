import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Adaptive average pooling of a signal to 8 bins. Input x: 4x32x128. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.adaptive_avg_pool1d(x, 8)
        return y
