import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Softmin (softmax of -x) over the last axis"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.softmin(x, dim=-1)
