import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """One query per head over the cache plus the newly appended key/value. Input q: 5x3x1x80. Fused: epilogue affinescalar. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, q, kc, vc, kn, vn):
        k = torch.cat([kc, kn], dim=2)
        v = torch.cat([vc, vn], dim=2)
        y = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
        y = y * 1.5 - 0.25
        return y
