import torch
import torch.nn as nn


class Model(nn.Module):
    """Bidirectional per-channel EMA scan over time; the forward and backward passes are
    concatenated along channels, as a bidirectional RNN concatenates its directions.

    fwd_t = a * fwd_{t-1} + (1 - a) * x_t          (a = sigmoid(decay_fwd[c]))
    bwd_t = b * bwd_{t+1} + (1 - b) * x_t          (b = sigmoid(decay_bwd[c]))
    """

    def __init__(self, channels):
        super().__init__()
        self.decay_fwd = nn.Parameter(torch.zeros(channels))
        self.decay_bwd = nn.Parameter(torch.zeros(channels))

    def forward(self, x):
        a = torch.sigmoid(self.decay_fwd)[None, :]
        b = torch.sigmoid(self.decay_bwd)[None, :]
        steps = x.shape[-1]
        h = torch.zeros_like(x[..., 0])
        fwd = []
        for t in range(steps):
            h = a * h + (1.0 - a) * x[..., t]
            fwd.append(h)
        h = torch.zeros_like(x[..., 0])
        bwd = [None] * steps
        for t in reversed(range(steps)):
            h = b * h + (1.0 - b) * x[..., t]
            bwd[t] = h
        return torch.cat([torch.stack(fwd, dim=-1), torch.stack(bwd, dim=-1)], dim=1)
