import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Clamp to [-0.5, 0.5]"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.clamp(x, -0.5, 0.5)
