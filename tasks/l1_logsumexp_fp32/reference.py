import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Log-sum-exp over the last axis"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.logsumexp(x, dim=-1)
