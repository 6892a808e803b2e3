import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """avg_pool2d(tanh(conv(x) - s1) - s2, 2)"""

    def __init__(self, cin, cout, k, s1, s2, pool):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k)
        self.s1 = s1
        self.s2 = s2
        self.pool = pool

    def forward(self, x):
        y = torch.tanh(self.conv(x) - self.s1) - self.s2
        return F.avg_pool2d(y, self.pool)
