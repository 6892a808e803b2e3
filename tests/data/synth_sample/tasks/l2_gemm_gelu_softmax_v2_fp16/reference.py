import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """softmax(gelu(fc(x))). Input x: 128x512. (float16)"""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(512, 512)

    def forward(self, x):
        y = torch.softmax(F.gelu(self.fc(x) * 3.0), dim=1)
        return y
