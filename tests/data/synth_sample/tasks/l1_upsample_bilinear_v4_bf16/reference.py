import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Bilinear 2x upsampling (align_corners=False). Input x: 2x16x32x16. (bfloat16)"""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=False)
        return y
