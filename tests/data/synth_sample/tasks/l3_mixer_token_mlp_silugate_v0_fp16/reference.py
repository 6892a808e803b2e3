import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x + transpose(MLP over the token axis of LayerNorm(x)). Input x: 2x128x128. Fused: epilogue silugate. (float16)"""

    def __init__(self):
        super().__init__()
        self.ln = nn.LayerNorm(128)
        self.fc1 = nn.Linear(128, 16)
        self.fc2 = nn.Linear(16, 128)

    def forward(self, x, res_e1):
        h = self.ln(x).transpose(1, 2)
        y = x + self.fc2(F.gelu(self.fc1(h))).transpose(1, 2)
        y = y * F.silu(res_e1)
        return y
