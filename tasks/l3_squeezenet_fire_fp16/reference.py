import torch
import torch.nn as nn


class Model(nn.Module):
    """Squeeze to few channels, expand with parallel 1x1 and 3x3 branches, concatenate."""

    def __init__(self, in_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self.squeeze = nn.Conv2d(in_channels, squeeze_channels, 1)
        self.expand1x1 = nn.Conv2d(squeeze_channels, expand1x1_channels, 1)
        self.expand3x3 = nn.Conv2d(squeeze_channels, expand3x3_channels, 3, padding=1)

    def forward(self, x):
        s = torch.relu(self.squeeze(x))
        return torch.cat((torch.relu(self.expand1x1(s)), torch.relu(self.expand3x3(s))), dim=1)
