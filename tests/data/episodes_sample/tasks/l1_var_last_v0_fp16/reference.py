import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Unbiased variance over the last axis. Input x: 128x512. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.var(x, dim=-1)
        return y
