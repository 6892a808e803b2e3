import torch
import torch.nn as nn


class Model(nn.Module):
    """Attention pooling over the instances (dim 1) of each bag:
    a = softmax_t(w^T tanh(V x_t)),  z = sum_t a_t x_t.  Returns (z, a)."""

    def __init__(self, features, attn_dim):
        super().__init__()
        self.V = nn.Linear(features, attn_dim, bias=False)
        self.w = nn.Linear(attn_dim, 1, bias=False)

    def forward(self, x):
        scores = self.w(torch.tanh(self.V(x))).squeeze(-1)             # [B, T]
        a = torch.softmax(scores, dim=1)
        return torch.einsum("bt,btd->bd", a, x), a
