import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Circular padding of a signal, 1 left and 3 right. Input x: 4x32x128. Fused: prologue pregain, epilogue adapter16, epilogue sigmoidquarter. (float32)"""

    def __init__(self):
        super().__init__()
        self.pgain_p1 = nn.Parameter(torch.ones(128))
        self.adp_a_e1 = nn.Linear(132, 16, bias=False)
        self.adp_b_e1 = nn.Linear(16, 132, bias=False)

    def forward(self, x):
        x = x * self.pgain_p1
        y = F.pad(x, (1, 3), mode='circular')
        y = y + self.adp_b_e1(torch.relu(self.adp_a_e1(y)))
        y = torch.sigmoid(0.25 * y)
        return y
