import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Layer normalisation without affine parameters (eps 1e-5) over the last axis"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.layer_norm(x, (x.shape[-1],), eps=1e-5)
