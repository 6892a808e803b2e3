import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear, GELU, Linear. Input x: 128x256. Fused: epilogue resscale. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(256, 256)
        self.fc2 = nn.Linear(256, 256)

    def forward(self, x, res_e1):
        y = self.fc2(F.gelu(self.fc1(x)))
        y = res_e1 + 0.5 * y
        return y
