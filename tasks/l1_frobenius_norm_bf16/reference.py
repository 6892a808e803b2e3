import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """x divided by the Frobenius norm of the whole tensor."""

    def forward(self, x):
        return x / torch.sqrt(torch.sum(x * x))
