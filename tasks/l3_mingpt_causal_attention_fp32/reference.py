import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """Multi-head causal self-attention with a fused QKV projection."""

    def __init__(self, n_embd, n_head):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head

    def forward(self, x):
        B, T, C = x.shape
        hd = C // self.n_head
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, hd).transpose(1, 2)
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(hd)
        mask = torch.ones(T, T).tril() == 0
        att = torch.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(B, T, C)
        return self.c_proj(y)
