import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """LayerNorm(tok[ids] + pos). Input ids: 2x128. Fused: epilogue gelu. (float16)"""

    def __init__(self):
        super().__init__()
        self.pos = nn.Parameter(torch.zeros(128, 128))
        self.tok = nn.Embedding(4096, 128)
        self.ln = nn.LayerNorm(128)

    def forward(self, ids):
        y = self.ln(self.tok(ids) + self.pos)
        y = F.gelu(y)
        return y
