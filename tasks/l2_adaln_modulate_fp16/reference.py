import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm (no affine) modulated per batch element by shift and scale."""

    def __init__(self, hidden):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)

    def forward(self, x, shift, scale):
        return self.norm(x) * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)
