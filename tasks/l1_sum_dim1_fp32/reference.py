import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """out[b, c] = sum_r x[b, r, c]"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1)
