import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """lower triangle of x, zeros above the diagonal"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.tril(x)
