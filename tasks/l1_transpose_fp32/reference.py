import torch
import torch.nn as nn

class Model(nn.Module):
    """out = x.T (materialised)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.t().contiguous()
