import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """sqrt(x^2 + y^2). Input x: 128x256. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = torch.hypot(x, y)
        return y
