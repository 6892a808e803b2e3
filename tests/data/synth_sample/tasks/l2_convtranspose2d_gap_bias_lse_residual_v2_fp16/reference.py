import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Transposed conv, global average pool, bias, log-sum-exp over channels, times 10. Input x: 2x32x32x32. Fused: epilogue residual. (float16)"""

    def __init__(self):
        super().__init__()
        self.b = nn.Parameter(torch.zeros(32))
        self.conv = nn.ConvTranspose2d(32, 32, 3, stride=2, padding=1, output_padding=1)

    def forward(self, x, res_e1):
        y = torch.logsumexp(self.conv(x).mean(dim=(2, 3)) + self.b, dim=1) * 10.0
        y = y + res_e1
        return y
