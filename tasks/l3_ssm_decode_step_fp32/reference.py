import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """One decoding step of a Mamba selective SSM: update the state with one token and
    read the output.  Returns (y [B, C], new state [B, C, S])."""

    def forward(self, state, x, dt, A, B, C, D):
        delta = F.softplus(dt)                                            # [b, c]
        decay = torch.exp(delta[:, :, None] * A[None, :, :])              # [b, c, s]
        new_state = decay * state + (delta * x)[:, :, None] * B[:, None, :]
        y = (new_state * C[:, None, :]).sum(dim=-1) + D[None, :] * x
        return y, new_state
