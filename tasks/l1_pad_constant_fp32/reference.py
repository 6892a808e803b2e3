import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """zero padding: 2 columns left, 3 right"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.pad(x, (2, 3))
