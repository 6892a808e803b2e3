import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """First differences along the first axis. Input x: 300x1000. Fused: epilogue relu6, epilogue scalarscale. (bfloat16)"""

    def __init__(self):
        super().__init__()
        self.alpha_e2 = nn.Parameter(torch.ones(1))

    def forward(self, x):
        y = torch.diff(x, dim=0)
        y = F.relu6(y)
        y = y * self.alpha_e2
        return y
