import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Row sums of sigmoid(fc(x)). Input x: 128x256. Fused: epilogue resscale. (float16)"""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(256, 300)

    def forward(self, x, res_e1):
        y = torch.sigmoid(self.fc(x)).sum(dim=1, keepdim=True)
        y = res_e1 + 0.5 * y
        return y
