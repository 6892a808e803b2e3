import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Max pooling over pairs of the last dim, then softmax over it."""

    def forward(self, x):
        return torch.softmax(F.max_pool1d(x, kernel_size=2, stride=2), dim=-1)
