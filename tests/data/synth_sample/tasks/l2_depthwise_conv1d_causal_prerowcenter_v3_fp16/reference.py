import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Causal depthwise conv1d (kernel 4, left padding, output cropped). Input x: 4x16x256. Fused: prologue prerowcenter. (float16)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(16, 16, 4, padding=3, groups=16, bias=False)

    def forward(self, x):
        x = x - x.mean(-1, keepdim=True)
        y = self.conv(x)[..., :x.shape[-1]]
        return y
