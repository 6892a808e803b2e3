import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm(x + fc2(gelu(fc1 x))). Input x: 4x128x64. Fused: epilogue rrelu. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 256)
        self.fc2 = nn.Linear(256, 64)
        self.ln = nn.LayerNorm(64)

    def forward(self, x):
        y = self.ln(x + self.fc2(F.gelu(self.fc1(x))))
        y = F.rrelu(y, training=False)
        return y
