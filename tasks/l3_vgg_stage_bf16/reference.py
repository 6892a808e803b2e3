import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """conv-ReLU x 3, then max-pool."""

    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, padding=1)
        self.conv3 = nn.Conv2d(c_out, c_out, 3, padding=1)

    def forward(self, x):
        y = torch.relu(self.conv1(x))
        y = torch.relu(self.conv2(y))
        y = torch.relu(self.conv3(y))
        return F.max_pool2d(y, 2)
