import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm over the last axis with affine weight and bias. Input x: 128x512. (float16)"""

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(512, eps=1e-5)

    def forward(self, x):
        y = self.norm(x)
        return y
