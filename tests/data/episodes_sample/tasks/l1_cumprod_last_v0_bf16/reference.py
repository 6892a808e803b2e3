import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Inclusive prefix product over the last axis of values near one. Input x: 128x128. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.cumprod(x, dim=-1)
        return y
