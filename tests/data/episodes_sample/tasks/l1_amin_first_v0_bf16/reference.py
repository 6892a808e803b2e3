import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Minimum over the first axis. Input x: 256x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.amin(x, dim=0)
        return y
