import torch
import torch.nn as nn

class Model(nn.Module):
    """out[i] = a[i] @ b[i]"""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a, b)
