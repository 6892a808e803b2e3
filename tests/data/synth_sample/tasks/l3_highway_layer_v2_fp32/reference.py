import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """g * relu(H x) + (1 - g) * x with g = sigmoid(T x). Input x: 128x128. (float32)"""

    def __init__(self):
        super().__init__()
        self.t = nn.Linear(128, 128)
        self.h = nn.Linear(128, 128)

    def forward(self, x):
        g = torch.sigmoid(self.t(x))
        y = g * torch.relu(self.h(x)) + (1 - g) * x
        return y
