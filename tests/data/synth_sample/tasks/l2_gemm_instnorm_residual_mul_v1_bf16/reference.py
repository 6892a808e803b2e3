import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear, per-row instance norm, plus y, times y. Input x: 100x200. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(200, 192)

    def forward(self, x, r):
        h = F.instance_norm(self.fc(x).unsqueeze(1)).squeeze(1)
        y = (h + r) * r
        return y
