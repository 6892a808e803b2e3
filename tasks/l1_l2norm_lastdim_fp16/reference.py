import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Euclidean norm over the last axis"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.linalg.vector_norm(x, dim=-1)
