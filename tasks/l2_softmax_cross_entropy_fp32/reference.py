import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cross-entropy loss per sample."""

    def forward(self, logits, target):
        return F.cross_entropy(logits, target, reduction="none")
