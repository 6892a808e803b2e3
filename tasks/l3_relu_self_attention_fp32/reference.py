import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """Multi-head causal self-attention whose softmax is replaced by a ReLU."""

    def __init__(self, n_embd, n_head):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.n_head = n_head

    def forward(self, x):
        b, t, c = x.shape
        hs = c // self.n_head
        q, k, v = self.c_attn(x).split(c, dim=2)
        q = q.view(b, t, self.n_head, hs).transpose(1, 2)
        k = k.view(b, t, self.n_head, hs).transpose(1, 2)
        v = v.view(b, t, self.n_head, hs).transpose(1, 2)
        att = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hs)
        mask = torch.ones(t, t, dtype=torch.bool).triu(1)
        att = torch.relu(att.masked_fill(mask, float("-inf")))
        y = torch.matmul(att, v).transpose(1, 2).reshape(b, t, c)
        return self.c_proj(y)
