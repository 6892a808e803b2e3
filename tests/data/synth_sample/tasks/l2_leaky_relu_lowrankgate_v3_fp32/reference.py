import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LeakyReLU. Input x: 5x3x24x16. Fused: epilogue lowrankgate. (float32)"""

    def __init__(self):
        super().__init__()
        self.gt_a_e1 = nn.Linear(16, 8, bias=False)
        self.gt_b_e1 = nn.Linear(8, 16, bias=False)

    def forward(self, x):
        y = F.leaky_relu(x, 0.1)
        y = y * torch.sigmoid(self.gt_b_e1(self.gt_a_e1(y)))
        return y
