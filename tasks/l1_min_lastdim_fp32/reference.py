import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Minimum over the last axis"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.min(x, dim=-1).values
