import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """Scaled dot-product attention per (batch, head), no mask."""

    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
        return torch.matmul(torch.softmax(scores, dim=-1), v)
