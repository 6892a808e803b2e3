import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """floor(s * x). Input x: 4x128x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.floor(x * 3.5)
        return y
