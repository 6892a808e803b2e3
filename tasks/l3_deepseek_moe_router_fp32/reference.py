import torch
import torch.nn as nn


class Model(nn.Module):
    """Top-k softmax router that also reports the share of tokens each expert receives."""

    def __init__(self, hidden, experts, k):
        super().__init__()
        self.gate = nn.Linear(hidden, experts, bias=False)
        self.k = k

    def forward(self, x):
        probs = torch.softmax(self.gate(x), dim=-1)
        w, idx = torch.topk(probs, self.k, dim=-1)
        counts = torch.zeros(probs.shape[1]).scatter_add_(0, idx.reshape(-1), torch.ones(idx.numel()))
        return w, idx.to(torch.int32), counts / x.shape[0]
