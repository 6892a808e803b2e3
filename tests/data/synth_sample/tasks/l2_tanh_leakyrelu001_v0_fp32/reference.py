import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Tanh. Input x: 256x256. Fused: epilogue leakyrelu001. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.tanh(x)
        y = F.leaky_relu(y, 0.01)
        return y
