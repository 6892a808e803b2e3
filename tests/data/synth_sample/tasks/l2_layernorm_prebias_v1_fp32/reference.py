import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm over the last axis with affine weight and bias. Input x: 100x777. Fused: prologue prebias. (float32)"""

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(777, eps=1e-6)
        self.pbias_p1 = nn.Parameter(torch.zeros(777))

    def forward(self, x):
        x = x + self.pbias_p1
        y = self.norm(x)
        return y
