import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A @ B @ C. Input a: 200x384. Fused: epilogue relu6. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, a, b, c):
        y = torch.linalg.multi_dot([a, b, c])
        y = F.relu6(y)
        return y
