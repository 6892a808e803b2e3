import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conformer convolution module with a residual connection (eval-mode BatchNorm)."""

    def __init__(self, d_model, kernel_size):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.pw1 = nn.Conv1d(d_model, 2 * d_model, 1)
        self.dw = nn.Conv1d(d_model, d_model, kernel_size, padding=kernel_size // 2, groups=d_model)
        self.bn = nn.BatchNorm1d(d_model)
        self.pw2 = nn.Conv1d(d_model, d_model, 1)

    def forward(self, x):
        y = self.norm(x).transpose(1, 2)                   # [B, C, T]
        y = F.glu(self.pw1(y), dim=1)
        y = F.silu(self.bn(self.dw(y)))
        return x + self.pw2(y).transpose(1, 2)
