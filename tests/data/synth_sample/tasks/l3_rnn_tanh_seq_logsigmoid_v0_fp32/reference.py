import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Elman RNN over a short sequence, all hidden states returned. Input x: 2x16x32. Fused: epilogue logsigmoid. (float32)"""

    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(32, 32, batch_first=True)

    def forward(self, x):
        y = self.rnn(x)[0]
        y = F.logsigmoid(y)
        return y
