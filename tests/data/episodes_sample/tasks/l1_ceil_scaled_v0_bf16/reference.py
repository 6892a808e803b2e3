import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ceil(2.5 * x). Input x: 128x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.ceil(x * 2.5)
        return y
