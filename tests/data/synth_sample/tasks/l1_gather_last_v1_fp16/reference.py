import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """torch.gather along the last axis. Input x: 300x777. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        y = torch.gather(x, -1, idx)
        return y
