import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """min(x, 0.5). Input x: 256x256. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.clamp_max(x, 0.5)
        return y
