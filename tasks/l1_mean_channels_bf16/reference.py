import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """out[n, h, w] = mean_c x[n, c, h, w]"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.mean(x, dim=1)
