import torch
import torch.nn as nn

class Model(nn.Module):
    """out = x * scale, with scale broadcast along the last axis"""

    def __init__(self):
        super().__init__()

    def forward(self, x, scale):
        return x * scale
