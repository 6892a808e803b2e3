import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """softmax over dim 1 of [N, C, H, W]"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)
