import torch
import torch.nn as nn

class Model(nn.Module):
    """out[b, i] = max_j x[b, i, j]"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.amax(x, dim=-1)
