import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Euclidean distance of row pairs. Input x: 256x1024. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = F.pairwise_distance(x, y)
        return y
