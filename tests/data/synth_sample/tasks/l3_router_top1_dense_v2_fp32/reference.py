import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Router probabilities with every non-maximal expert zeroed. Input x: 256x512. (float32)"""

    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(512, 16, bias=False)

    def forward(self, x):
        p = torch.softmax(self.gate(x), dim=-1)
        y = p * (p == p.amax(dim=-1, keepdim=True))
        return y
