import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Softmax over the last axis with the strict upper triangle masked out. Input x: 256x256. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.softmax(x.masked_fill(torch.ones(x.shape[-2], x.shape[-1], dtype=torch.bool).triu(1), float('-inf')), dim=-1)
        return y
