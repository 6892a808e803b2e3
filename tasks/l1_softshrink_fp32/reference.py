import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Softshrink with lambda 0.5"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.softshrink(x, lambd=0.5)
