import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Cross-entropy per pixel, classes on dim 1."""

    def forward(self, logits, target):
        return F.cross_entropy(logits, target.long(), reduction="none")
