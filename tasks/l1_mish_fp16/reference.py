import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Mish (x * tanh(softplus(x)))"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x * torch.tanh(F.softplus(x))
