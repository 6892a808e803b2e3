import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm followed by a linear projection: fc(LN(x))."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.norm = nn.LayerNorm(d_in, eps=1e-5)
        self.fc = nn.Linear(d_in, d_out)

    def forward(self, x):
        return self.fc(self.norm(x))
