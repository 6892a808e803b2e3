import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """2 to the power x. Input x: 256x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.exp2(x)
        return y
