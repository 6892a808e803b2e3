import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x / sqrt(mean(x^2 over dim 1) + eps)"""

    def __init__(self, features, eps):
        super().__init__()
        self.features = features
        self.eps = eps

    def forward(self, x):
        rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + self.eps)
        return x / rms
