import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """SELU (scale 1.0507, alpha 1.67326)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.selu(x)
