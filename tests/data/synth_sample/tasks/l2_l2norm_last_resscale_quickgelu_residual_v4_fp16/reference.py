import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Euclidean norm over the last axis. Input x: 5x100x256. Fused: epilogue resscale, epilogue quickgelu, epilogue residual. (float16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x, res_e1, res_e3):
        y = torch.linalg.vector_norm(x, ord=2, dim=-1)
        y = res_e1 + 0.5 * y
        y = y * torch.sigmoid(1.702 * y)
        y = y + res_e3
        return y
