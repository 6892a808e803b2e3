import torch
import torch.nn as nn

class Model(nn.Module):
    """out = 1 / (1 + exp(-x))"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sigmoid(x)
