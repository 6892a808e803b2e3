import torch
import torch.nn as nn


class Model(nn.Module):
    """q * cos + rotate_half(q) * sin with rotate_half(x) = cat(-x2, x1) over the head dim."""

    def forward(self, q, cos, sin):
        half = q.shape[-1] // 2
        rot = torch.cat((-q[..., half:], q[..., :half]), dim=-1)
        return q * cos + rot * sin
