import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Index of the maximum over the first axis (int32). Input x: 128x512. (float32)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.argmax(x, dim=0).to(torch.int32)
        return y
