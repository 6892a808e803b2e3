import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Linear without bias. Input x: 128x512. (float16)"""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 128, bias=False)

    def forward(self, x):
        y = self.fc(x)
        return y
