import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """A @ B @ C. Input a: 256x512. Fused: epilogue resscale. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, a, b, c, res_e1):
        y = torch.linalg.multi_dot([a, b, c])
        y = res_e1 + 0.5 * y
        return y
