import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Unbiased variance over the last axis. Input x: 2x256x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.var(x, dim=-1)
        return y
