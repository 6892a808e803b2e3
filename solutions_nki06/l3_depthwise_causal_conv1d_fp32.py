import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def depthwise_causal_conv1d_kernel(x, weight, bias):
    """Depthwise causal conv: out[b, c, l] = bias[c] + sum_t weight[c, 0, t] * x[b, c, l + t - (KW-1)].

    x [B, C, L], weight [C, 1, KW], bias [C]; C a multiple of 128.  Channels sit on
    partitions, so each tap is a per-partition scalar: the taps are chained as
    multiply-adds on the Vector Engine over a left-zero-padded SBUF copy of x.
    """
    B, C, L = x.shape
    KW = weight.shape[2]
    P = nl.tile_size.pmax
    n_c = C // P
    out = nl.ndarray((B, C, L), dtype=x.dtype, buffer=nl.shared_hbm)
    w2d = weight.reshape((C, KW))
    b_col = bias.reshape((C, 1))

    for c in nl.affine_range(n_c):
        w_sb = nl.load(w2d[c * P:(c + 1) * P, 0:KW])
        b_sb = nl.load(b_col[c * P:(c + 1) * P, 0:1])
        for b in nl.affine_range(B):
            xp = nl.zeros((P, L + KW - 1), dtype=x.dtype, buffer=nl.sbuf)
            xp[:, KW - 1:KW - 1 + L] = nl.load(x[b, c * P:(c + 1) * P, 0:L])
            acc = nl.ndarray((P, L), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(acc[...], data=xp[:, 0:L], op0=nl.multiply, operand0=w_sb[:, 0:1], op1=nl.add, operand1=b_sb)
            for t in nl.sequential_range(1, KW):
                nisa.scalar_tensor_tensor(acc[...], data=xp[:, t:t + L], op0=nl.multiply, operand0=w_sb[:, t:t + 1], op1=nl.add, operand1=acc)
            res = nl.copy(acc, dtype=out.dtype)
            nl.store(out[b, c * P:(c + 1) * P, 0:L], value=res)
    return out
