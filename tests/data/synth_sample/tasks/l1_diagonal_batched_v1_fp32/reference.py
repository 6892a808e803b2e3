import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Main diagonal of each square matrix in a batch. Input x: 3x300x300. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.diagonal(x, dim1=-2, dim2=-1).contiguous()
        return y
