import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Hardtanh clamping to [-1, 1]"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.hardtanh(x, min_val=-1.0, max_val=1.0)
