import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.AdaptiveAvgPool2d(1): mean over H, W"""

    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.pool(x)
