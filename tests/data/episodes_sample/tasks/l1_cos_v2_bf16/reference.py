import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cosine. Input x: 4x128x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.cos(x)
        return y
