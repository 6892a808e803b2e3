import torch
import torch.nn as nn

class Model(nn.Module):
    """out = x.permute(0, 2, 1) (materialised)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.permute(0, 2, 1).contiguous()
