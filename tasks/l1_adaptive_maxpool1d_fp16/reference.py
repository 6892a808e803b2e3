import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Adaptive max pooling of the last axis to a fixed length."""

    def __init__(self, out_len):
        super().__init__()
        self.pool = nn.AdaptiveMaxPool1d(out_len)

    def forward(self, x):
        return self.pool(x)
