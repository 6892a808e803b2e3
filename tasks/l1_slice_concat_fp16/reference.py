import torch
import torch.nn as nn

class Model(nn.Module):
    """out = cat([a[:, 128:], b], dim=1)"""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.cat([a[:, 128:], b], dim=1)
