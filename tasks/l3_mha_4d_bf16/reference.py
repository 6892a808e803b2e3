import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """Multi-head attention on 4-D [B, H, S, D] tensors, no mask."""

    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        return torch.matmul(torch.softmax(scores, dim=-1), v)
