import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Adaptive max pooling of a signal to length 8. Input x: 2x16x128. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.adaptive_max_pool1d(x, 8)
        return y
