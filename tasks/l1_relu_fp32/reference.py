import torch
import torch.nn as nn

class Model(nn.Module):
    """out = max(x, 0)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)
