import torch
import torch.nn as nn


class Model(nn.Module):
    """Router: (top-k renormalised weights, top-k expert indices)."""

    def __init__(self, hidden, experts, k):
        super().__init__()
        self.gate = nn.Linear(hidden, experts, bias=False)
        self.k = k

    def forward(self, x):
        probs = torch.softmax(self.gate(x), dim=-1)
        w, idx = torch.topk(probs, self.k, dim=-1)
        return w / w.sum(dim=-1, keepdim=True), idx.to(torch.int32)
