import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Pre-LN feed-forward sub-block with tanh-approximated GELU."""

    def __init__(self, d_model, hidden):
        super().__init__()
        self.ln = nn.LayerNorm(d_model)
        self.c_fc = nn.Linear(d_model, hidden)
        self.c_proj = nn.Linear(hidden, d_model)

    def forward(self, x):
        return x + self.c_proj(F.gelu(self.c_fc(self.ln(x)), approximate="tanh"))
