import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cosine similarity of two tensors along the last axis. Input x: 256x1024. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        y = F.cosine_similarity(x, y, dim=-1)
        return y
