import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Hardswish. Input x: 256x512. Fused: prologue precastbf16. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.to(torch.bfloat16).to(torch.float32)
        y = F.hardswish(x)
        return y
