import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LogSigmoid. Input x: 4x16x30x20. Fused: epilogue scalarscale. (float16)"""

    def __init__(self):
        super().__init__()
        self.alpha_e1 = nn.Parameter(torch.ones(1))

    def forward(self, x):
        y = F.logsigmoid(x)
        y = y * self.alpha_e1
        return y
