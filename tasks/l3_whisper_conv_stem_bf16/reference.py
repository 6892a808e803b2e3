import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Two 1-D convolutions with GELU (the second halves the frame rate), plus positions."""

    def __init__(self, n_mels, n_state, n_ctx):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, n_state, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(n_state, n_state, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", torch.zeros(n_ctx, n_state))

    def forward(self, x):
        x = F.gelu(self.conv1(x))
        x = F.gelu(self.conv2(x))
        return x.permute(0, 2, 1) + self.positional_embedding
