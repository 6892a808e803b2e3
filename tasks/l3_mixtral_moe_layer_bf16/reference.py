import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Sparse MoE block: top-k softmax routing over SwiGLU experts."""

    def __init__(self, hidden, ffn, experts):
        super().__init__()
        self.gate = nn.Linear(hidden, experts, bias=False)
        self.w1 = nn.Parameter(torch.zeros(experts, ffn, hidden))
        self.w3 = nn.Parameter(torch.zeros(experts, ffn, hidden))
        self.w2 = nn.Parameter(torch.zeros(experts, hidden, ffn))

    def forward(self, x):
        logits = self.gate(x)
        probs = torch.softmax(logits, dim=-1)
        w, idx = torch.topk(probs, 2, dim=-1)
        w = w / w.sum(dim=-1, keepdim=True)
        out = torch.zeros_like(x)
        for e in range(self.w1.shape[0]):
            coeff = (w * (idx == e).to(x.dtype)).sum(-1, keepdim=True)
            rows = coeff.squeeze(1) != 0
            if rows.any():
                xe = x[rows]
                y = (F.silu(xe @ self.w1[e].t()) * (xe @ self.w3[e].t())) @ self.w2[e].t()
                out[rows] += coeff[rows] * y
        return out, logits
