import torch
import torch.nn as nn

class Model(nn.Module):
    """out = softmax(x, dim=-1)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)
