import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """One decode step: each query head attends over the whole cache of its KV group."""

    def forward(self, q, k_cache, v_cache):
        group = q.shape[1] // k_cache.shape[1]
        k = k_cache.repeat_interleave(group, dim=1)          # [B, Hq, S, D]
        v = v_cache.repeat_interleave(group, dim=1)
        scores = torch.matmul(k, q.unsqueeze(-1)).squeeze(-1) / math.sqrt(q.shape[-1])   # [B, Hq, S]
        p = torch.softmax(scores, dim=-1)
        return torch.matmul(p.unsqueeze(-2), v).squeeze(-2)
