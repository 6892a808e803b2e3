import torch
import torch.nn as nn


class Model(nn.Module):
    """out[..., 2i] = x0 * c - x1 * s, out[..., 2i+1] = x0 * s + x1 * c, angles per (position, i)."""

    def forward(self, x, cos, sin):
        x0 = x[..., 0::2]
        x1 = x[..., 1::2]
        c = cos[None, :, None, :]
        s = sin[None, :, None, :]
        return torch.stack((x0 * c - x1 * s, x0 * s + x1 * c), dim=-1).flatten(-2)
