import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Absolute value. Input x: 3x48x14x32. Fused: epilogue scaleshift, epilogue mul. (float32)"""

    def __init__(self):
        super().__init__()
        self.gamma_e1 = nn.Parameter(torch.ones(32))
        self.beta_e1 = nn.Parameter(torch.zeros(32))

    def forward(self, x, mul_e2):
        y = torch.abs(x)
        y = y * self.gamma_e1 + self.beta_e1
        y = y * mul_e2
        return y
