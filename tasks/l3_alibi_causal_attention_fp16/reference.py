import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """softmax(q k^T / sqrt(d) + slope_h * (j - i), causal) v."""

    def forward(self, q, k, v):
        heads, s = q.shape[1], q.shape[2]
        slopes = torch.tensor([2.0 ** (-8.0 * (h + 1) / heads) for h in range(heads)])
        i = torch.arange(s)[:, None]
        j = torch.arange(s)[None, :]
        bias = slopes[:, None, None] * (j - i).to(torch.float32)[None, :, :]
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1]) + bias[None]
        scores = scores.masked_fill((j > i)[None, None], float("-inf"))
        return torch.matmul(torch.softmax(scores, dim=-1), v)
