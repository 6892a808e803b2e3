import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """torch.gather along the first axis. Input x: 128x777. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, idx):
        y = torch.gather(x, 0, idx)
        return y
