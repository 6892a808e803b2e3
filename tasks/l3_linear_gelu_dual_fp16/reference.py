import torch
import torch.nn as nn


class Model(nn.Module):
    """Linear layer returning both the pre-activation and its tanh-approximated GELU."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.act = nn.GELU(approximate="tanh")

    def forward(self, x):
        h = self.fc(x)
        return h, self.act(h)
