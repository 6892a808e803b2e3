import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """log(exp(x) + exp(y)). Input x: 300x1000. Fused: epilogue mul. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y, mul_e1):
        y = torch.logaddexp(x, y)
        y = y * mul_e1
        return y
