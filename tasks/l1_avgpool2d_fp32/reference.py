import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.AvgPool2d(k): mean of each k x k window, stride k"""

    def __init__(self, kernel):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel)

    def forward(self, x):
        return self.pool(x)
