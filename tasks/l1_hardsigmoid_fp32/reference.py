import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Hardsigmoid (clamp(x / 6 + 1/2, 0, 1))"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.hardsigmoid(x)
