import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Per-channel mean and biased variance over N, H and W."""

    def forward(self, x):
        var, mean = torch.var_mean(x, dim=(0, 2, 3), unbiased=False)
        return mean, var
