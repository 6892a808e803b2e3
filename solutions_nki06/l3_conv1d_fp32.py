import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def conv1d_kernel(x, weight, bias):
    """Conv1d, stride 1, zero padding (KW - 1) // 2, as KW shifted matmuls accumulated in PSUM.

    x [B, Ci, L], weight [Co, Ci, KW], bias [Co]; Ci, Co <= 128 and L <= 512.
    out[b, :, l] = bias + sum_t weight[:, :, t] @ xpad[b, :, l + t], where xpad is x with
    PAD zero columns on each side, built in SBUF.  Input channels are the contraction
    (partition) dim; output channels land on PSUM partitions, so the bias is a
    per-partition activation bias.
    """
    B, Ci, L = x.shape
    Co, _, KW = weight.shape
    PAD = (KW - 1) // 2
    out = nl.ndarray((B, Co, L), dtype=x.dtype, buffer=nl.shared_hbm)

    # per-tap weight matrices, transposed to [Ci, Co]
    w_sb = nl.load(weight.reshape((Co, Ci * KW)))          # column ci * KW + t
    w_taps = nl.ndarray((Ci, KW, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for t in nl.affine_range(KW):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, t:t + KW * (Ci - 1) + 1:KW].shape[1], w_sb[0:Co, t:t + KW * (Ci - 1) + 1:KW].shape[0]), dtype=nl.float32, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, t:t + KW * (Ci - 1) + 1:KW])
        w_taps[:, t, :] = nl.copy(nc_transpose_out, dtype=weight.dtype)
    b_sb = nl.load(bias.reshape((Co, 1)))

    for b in nl.affine_range(B):
        xp = nl.zeros((Ci, L + 2 * PAD), dtype=x.dtype, buffer=nl.sbuf)
        xp[:, PAD:PAD + L] = nl.load(x[b, 0:Ci, 0:L])
        acc = nl.zeros((Co, L), nl.float32, buffer=nl.psum)
        for t in nl.affine_range(KW):
            nisa.nc_matmul(acc, w_taps[:, t, :], xp[:, t:t + L], accumulate=True)
        res = nl.ndarray(acc.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(res, op=nl.copy, data=acc, bias=b_sb)
        nl.store(out[b, 0:Co, 0:L], value=res)
    return out
