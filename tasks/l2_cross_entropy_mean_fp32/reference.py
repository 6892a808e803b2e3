import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Mean cross-entropy over the batch (a 0-d tensor)."""

    def forward(self, logits, target):
        return F.cross_entropy(logits, target.long())
