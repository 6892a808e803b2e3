import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Population variance over the first axis. Input x: 128x256. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.var(x, dim=0, unbiased=False)
        return y
