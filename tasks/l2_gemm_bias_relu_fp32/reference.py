import torch
import torch.nn as nn


class Model(nn.Module):
    """relu(x @ W.T + b): a linear layer followed by ReLU."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.fc(x))
