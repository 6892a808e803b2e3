import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ReLU6 (min(max(x, 0), 6))"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.relu6(x)
