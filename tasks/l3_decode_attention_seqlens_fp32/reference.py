import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """Decode attention over the first seq_lens[b] cache slots; returns (output, logsumexp)."""

    def forward(self, q, k_cache, v_cache, seq_lens):
        group = q.shape[1] // k_cache.shape[1]
        k = k_cache.repeat_interleave(group, dim=1)          # [B, Hq, S, D]
        v = v_cache.repeat_interleave(group, dim=1)
        scores = torch.matmul(k, q.unsqueeze(-1)).squeeze(-1) / math.sqrt(q.shape[-1])   # [B, Hq, S]
        pos = torch.arange(k.shape[2]).view(1, 1, -1)
        scores = scores.masked_fill(pos >= seq_lens.view(-1, 1, 1), float("-inf"))
        p = torch.softmax(scores, dim=-1)
        out = torch.matmul(p.unsqueeze(-2), v).squeeze(-2)
        return out, torch.logsumexp(scores, dim=-1)
