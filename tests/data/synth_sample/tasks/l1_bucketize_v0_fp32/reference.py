import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Bucket index of each value among 9 fixed boundaries on [-2, 2] (int32). Input x: 128x256. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.bucketize(x, torch.linspace(-2.0, 2.0, 9)).to(torch.int32)
        return y
