import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Maximum over the first axis. Input x: 2x100x256. Fused: epilogue clamp, epilogue castbf16. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.amax(x, dim=0)
        y = torch.clamp(y, -2.0, 2.0)
        y = y.to(torch.bfloat16).to(torch.float32)
        return y
