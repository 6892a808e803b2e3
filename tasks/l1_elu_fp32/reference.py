import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ELU with alpha 1.0"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.elu(x, alpha=1.0)
