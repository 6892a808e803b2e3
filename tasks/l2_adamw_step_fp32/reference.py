import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """AdamW update with bias correction for a fixed step count."""

    def __init__(self, lr, beta1, beta2, eps, weight_decay, step):
        super().__init__()
        self.lr = lr
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.weight_decay = weight_decay
        self.step = step

    def forward(self, param, grad, exp_avg, exp_avg_sq):
        p = param * (1 - self.lr * self.weight_decay)
        m = self.beta1 * exp_avg + (1 - self.beta1) * grad
        v = self.beta2 * exp_avg_sq + (1 - self.beta2) * grad * grad
        bc1 = 1 - self.beta1 ** self.step
        bc2 = 1 - self.beta2 ** self.step
        denom = torch.sqrt(v) / math.sqrt(bc2) + self.eps
        p = p - (self.lr / bc1) * m / denom
        return p, m, v
