import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.GRU forward from a zero initial state; returns (output, h_n)."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers=1, batch_first=True)

    def forward(self, x):
        out, h_n = self.gru(x)
        return out, h_n
