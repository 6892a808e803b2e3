import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Each row sorted ascending. Input x: 256x256. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.sort(x, dim=-1).values
        return y
