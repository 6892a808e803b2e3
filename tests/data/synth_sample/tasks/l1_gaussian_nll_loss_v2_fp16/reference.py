import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Gaussian NLL with a predicted variance. Input pred: 256x512. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, pred, target, var):
        y = F.gaussian_nll_loss(pred, target, var)
        return y
