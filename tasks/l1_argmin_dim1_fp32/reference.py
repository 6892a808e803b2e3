import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """out[b, d] = argmin_s x[b, s, d] (first index on ties), as int32."""

    def forward(self, x):
        return torch.argmin(x, dim=1).to(torch.int32)
