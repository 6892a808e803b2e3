import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear(mean over the sequence). Input x: 2x128x128. (float32)"""

    def __init__(self):
        super().__init__()
        self.head = nn.Linear(128, 512)

    def forward(self, x):
        y = self.head(x.mean(dim=1))
        return y
