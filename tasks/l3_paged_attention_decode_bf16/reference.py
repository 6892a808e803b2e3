import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """Decode attention whose KV cache is scattered over fixed-size blocks of a shared pool."""

    def forward(self, q, k_cache, v_cache, block_tables, context_lens):
        b, hq, d = q.shape
        block, hkv = k_cache.shape[1], k_cache.shape[2]
        group = hq // hkv
        k = k_cache[block_tables.long()].reshape(b, -1, hkv, d).permute(0, 2, 1, 3)   # [B, Hkv, S, D]
        v = v_cache[block_tables.long()].reshape(b, -1, hkv, d).permute(0, 2, 1, 3)
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        scores = torch.matmul(k, q.unsqueeze(-1)).squeeze(-1) / math.sqrt(d)          # [B, Hq, S]
        pos = torch.arange(k.shape[2]).view(1, 1, -1)
        scores = scores.masked_fill(pos >= context_lens.view(-1, 1, 1), float("-inf"))
        return torch.matmul(torch.softmax(scores, dim=-1).unsqueeze(-2), v).squeeze(-2)
