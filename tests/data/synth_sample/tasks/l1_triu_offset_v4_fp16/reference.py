import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Upper triangle from the first subdiagonal (diagonal=-1). Input x: 100x256. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.triu(x, diagonal=-1)
        return y
