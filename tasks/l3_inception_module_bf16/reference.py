import torch
import torch.nn as nn


class Model(nn.Module):
    """Inception module: parallel 1x1, 3x3, 5x5 and pooled branches, concatenated."""

    def __init__(self, cin, out_1x1, red_3x3, out_3x3, red_5x5, out_5x5, pool_proj):
        super().__init__()
        self.branch1x1 = nn.Conv2d(cin, out_1x1, 1)
        self.branch3x3 = nn.Sequential(nn.Conv2d(cin, red_3x3, 1), nn.Conv2d(red_3x3, out_3x3, 3, padding=1))
        self.branch5x5 = nn.Sequential(nn.Conv2d(cin, red_5x5, 1), nn.Conv2d(red_5x5, out_5x5, 5, padding=2))
        self.branch_pool = nn.Sequential(nn.MaxPool2d(3, stride=1, padding=1), nn.Conv2d(cin, pool_proj, 1))

    def forward(self, x):
        return torch.cat([self.branch1x1(x), self.branch3x3(x), self.branch5x5(x), self.branch_pool(x)], 1)
