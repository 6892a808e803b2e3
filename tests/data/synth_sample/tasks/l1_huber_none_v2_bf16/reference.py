import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Elementwise Huber loss. Input x: 5x100x777. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = F.huber_loss(x, y, reduction='none', delta=0.5)
        return y
