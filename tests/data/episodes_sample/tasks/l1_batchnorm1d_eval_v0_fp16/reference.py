import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """BatchNorm1d over features with running statistics (eval). Input x: 256x1024. (float16)"""

    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm1d(1024)

    def forward(self, x):
        y = self.bn(x)
        return y
