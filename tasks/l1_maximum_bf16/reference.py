import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """out = max(a, b) elementwise"""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.maximum(a, b)
