import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A @ B @ C. Input a: 256x256. Fused: epilogue relu. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, a, b, c):
        y = torch.linalg.multi_dot([a, b, c])
        y = torch.relu(y)
        return y
