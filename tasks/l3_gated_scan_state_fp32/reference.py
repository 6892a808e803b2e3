import torch
import torch.nn as nn


class Model(nn.Module):
    """Input-gated linear recurrence over time from a given initial state.

    a_t = sigmoid(g[..., t]);  h_t = a_t * h_{t-1} + (1 - a_t) * x[..., t],  h_{-1} = h0.
    Returns (all states [B, C, T], final state [B, C]).
    """

    def forward(self, x, g, h0):
        h = h0
        steps = []
        for t in range(x.shape[-1]):
            a = torch.sigmoid(g[..., t])
            h = a * h + (1.0 - a) * x[..., t]
            steps.append(h)
        return torch.stack(steps, dim=-1), h
