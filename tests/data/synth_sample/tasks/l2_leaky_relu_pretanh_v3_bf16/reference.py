import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LeakyReLU. Input x: 4x32x16x32. Fused: prologue pretanh. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = torch.tanh(x)
        y = F.leaky_relu(x, 0.1)
        return y
