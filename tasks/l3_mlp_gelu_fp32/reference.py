import torch
import torch.nn as nn


class Model(nn.Module):
    """Two-layer MLP: fc2(gelu(fc1(x))) with exact GELU."""

    def __init__(self, d_model, d_hidden):
        super().__init__()
        self.fc1 = nn.Linear(d_model, d_hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(d_hidden, d_model)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))
