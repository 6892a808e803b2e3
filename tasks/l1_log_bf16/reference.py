import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Natural logarithm"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.log(x)
