import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Mean of the embeddings of each bag of ids. Input ids: 256x32. (float16)"""

    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(4096, 128, mode='mean')

    def forward(self, ids):
        y = self.bag(ids)
        return y
