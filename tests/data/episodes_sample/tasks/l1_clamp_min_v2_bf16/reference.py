import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """max(x, lo). Input x: 2x256x512. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.clamp_min(x, 0.25)
        return y
