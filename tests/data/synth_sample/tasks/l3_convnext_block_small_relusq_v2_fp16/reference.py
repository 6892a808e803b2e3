import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x + MLP(LN(dwconv7(x))) in channels-last. Input x: 2x32x16x16. Fused: epilogue relusq. (float16)"""

    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2d(32, 32, 7, padding=3, groups=32)
        self.ln = nn.LayerNorm(32)
        self.fc1 = nn.Linear(32, 4 * 32)
        self.fc2 = nn.Linear(4 * 32, 32)

    def forward(self, x):
        h = self.dw(x).permute(0, 2, 3, 1)
        h = self.fc2(F.gelu(self.fc1(self.ln(h))))
        y = x + h.permute(0, 3, 1, 2)
        y = torch.relu(y).pow(2)
        return y
