import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Tanh-approximated GELU. Input x: 256x512. Fused: epilogue celu, epilogue castbf16. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.gelu(x, approximate='tanh')
        y = F.celu(y, 1.5)
        y = y.to(torch.bfloat16).to(torch.float32)
        return y
