import torch
import torch.nn as nn

class Model(nn.Module):
    """out[i, :] = table[idx[i], :]"""

    def __init__(self):
        super().__init__()

    def forward(self, table, idx):
        return torch.index_select(table, 0, idx.long())
