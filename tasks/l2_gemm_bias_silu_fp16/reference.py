import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """silu(x @ W.T + b); the row count (200) is not a multiple of 128."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return F.silu(self.fc(x))
