import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """NCHW to NHWC. Input x: 5x48x32x32. Fused: epilogue tanh, epilogue silu. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = x.permute(0, 2, 3, 1).contiguous()
        y = torch.tanh(y)
        y = F.silu(y)
        return y
