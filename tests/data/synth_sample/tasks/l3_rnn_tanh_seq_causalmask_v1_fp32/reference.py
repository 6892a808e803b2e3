import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Elman RNN over a short sequence, all hidden states returned. Input x: 3x24x24. Fused: epilogue causalmask. (float32)"""

    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(24, 24, batch_first=True)

    def forward(self, x):
        y = self.rnn(x)[0]
        y = y.masked_fill(torch.ones(y.shape[-2], y.shape[-1], dtype=torch.bool).triu(1), 0.0)
        return y
