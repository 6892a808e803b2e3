import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x + GLU(conv1d(x), dim=1). Input x: 2x16x128. Fused: epilogue scale. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 2 * 16, 3, padding=1)

    def forward(self, x):
        y = x + F.glu(self.conv(x), dim=1)
        y = y * 0.5
        return y
