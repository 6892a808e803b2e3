import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """diag(d) @ B. Input d: 256. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, d, b):
        y = torch.diag(d) @ b
        return y
