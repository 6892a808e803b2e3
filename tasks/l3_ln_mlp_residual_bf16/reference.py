import torch
import torch.nn as nn


class Model(nn.Module):
    """Pre-LN feed-forward sub-block: x + fc2(gelu(fc1(LN(x))))."""

    def __init__(self, d_model, d_hidden):
        super().__init__()
        self.norm = nn.LayerNorm(d_model, eps=1e-5)
        self.fc1 = nn.Linear(d_model, d_hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(d_hidden, d_model)

    def forward(self, x):
        return x + self.fc2(self.act(self.fc1(self.norm(x))))
