import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Top-2 router probabilities renormalised to sum to one. Input x: 100x384. Fused: epilogue softsign. (float32)"""

    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(384, 12, bias=False)

    def forward(self, x):
        p = torch.softmax(self.gate(x), dim=-1)
        top = torch.topk(p, 2, dim=-1).values
        y = top / top.sum(dim=-1, keepdim=True)
        y = F.softsign(y)
        return y
