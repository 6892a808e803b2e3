import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.LSTM forward from a zero initial state; returns (output, c_n)."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers=1, batch_first=True)

    def forward(self, x):
        out, (h_n, c_n) = self.lstm(x)
        return out, c_n
