import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x * sigmoid(W2 relu(W1 mean_hw(x))). Input x: 5x48x24x28. Fused: epilogue relu6. (float16)"""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(48, 6, bias=False)
        self.fc2 = nn.Linear(6, 48, bias=False)

    def forward(self, x):
        y = x * torch.sigmoid(self.fc2(torch.relu(self.fc1(x.mean(dim=(2, 3))))))[:, :, None, None]
        y = F.relu6(y)
        return y
