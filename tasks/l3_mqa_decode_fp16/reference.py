import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """One decode step: every query head attends over the single shared key/value cache."""

    def forward(self, q, k_cache, v_cache):
        scores = torch.matmul(q, k_cache.transpose(-1, -2)) / math.sqrt(q.shape[-1])    # [B, H, S]
        return torch.matmul(torch.softmax(scores, dim=-1), v_cache)
