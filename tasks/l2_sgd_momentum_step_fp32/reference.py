import torch
import torch.nn as nn


class Model(nn.Module):
    """d = grad + wd * param; buf' = momentum * buf + d; param' = param - lr * buf'."""

    def __init__(self, lr, momentum, weight_decay):
        super().__init__()
        self.lr = lr
        self.momentum = momentum
        self.weight_decay = weight_decay

    def forward(self, param, grad, momentum_buf):
        d = grad + self.weight_decay * param
        buf = self.momentum * momentum_buf + d
        return param - self.lr * buf, buf
