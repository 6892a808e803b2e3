import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """relu(x @ W.T + bias) with the bias as its own parameter."""

    def __init__(self, fin, fout):
        super().__init__()
        self.gemm = nn.Linear(fin, fout, bias=False)
        self.bias = nn.Parameter(torch.zeros(fout))

    def forward(self, x):
        return torch.relu(self.gemm(x) + self.bias)
