import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """conv -> GroupNorm -> * scale -> max-pool 2x2 -> clamp(0, 1)"""

    def __init__(self, cin, cout, k, groups):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k)
        self.gn = nn.GroupNorm(groups, cout, eps=1e-5)
        self.scale = nn.Parameter(torch.ones(cout, 1, 1))

    def forward(self, x):
        y = self.gn(self.conv(x)) * self.scale
        y = F.max_pool2d(y, kernel_size=2)
        return torch.clamp(y, min=0.0, max=1.0)
