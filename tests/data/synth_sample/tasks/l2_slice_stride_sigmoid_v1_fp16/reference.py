import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Every second column, from column 1. Input x: 300x640. Fused: epilogue sigmoid. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x[..., 1::2].contiguous()
        y = torch.sigmoid(y)
        return y
