import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """-x log x of positive x. Input x: 128x512. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.special.entr(x)
        return y
