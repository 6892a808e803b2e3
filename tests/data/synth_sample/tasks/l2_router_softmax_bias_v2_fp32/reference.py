import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Router probabilities softmax(x W_g^T). Input x: 4x200x200. Fused: epilogue bias. (float32)"""

    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(200, 16, bias=False)
        self.bias_e1 = nn.Parameter(torch.zeros(16))

    def forward(self, x):
        y = torch.softmax(self.gate(x), dim=-1)
        y = y + self.bias_e1
        return y
