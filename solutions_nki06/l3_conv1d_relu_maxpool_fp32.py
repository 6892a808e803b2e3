import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def conv1d_relu_maxpool_kernel(x, weight, bias):
    """MaxPool1d(2)(relu(conv1d(x))) with stride 1 and zero padding (KW - 1) // 2.

    x [B, Ci, L], weight [Co, Ci, KW], bias [Co]; Ci, Co <= 128, L even and <= 512.
    The conv is KW shifted matmuls over a zero-padded SBUF copy of x, accumulated in PSUM
    (input channels contract on partitions); bias + ReLU is one activation; the pool takes
    the max of the even and odd columns, read with strided free-axis indices.
    """
    B, Ci, L = x.shape
    Co, _, KW = weight.shape
    PAD = (KW - 1) // 2
    LO = L // 2
    out = nl.ndarray((B, Co, LO), dtype=x.dtype, buffer=nl.shared_hbm)

    w_sb = nl.load(weight.reshape((Co, Ci * KW)))                     # column ci * KW + t
    w_taps = nl.ndarray((Ci, KW, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for t in nl.affine_range(KW):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, t:t + KW * (Ci - 1) + 1:KW].shape[1], w_sb[0:Co, t:t + KW * (Ci - 1) + 1:KW].shape[0]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, t:t + KW * (Ci - 1) + 1:KW])
        w_taps[:, t, :] = nl.copy(nc_transpose_out, dtype=weight.dtype)
    b_sb = nl.load(bias.reshape((Co, 1)))

    for b in nl.affine_range(B):
        xp = nl.zeros((Ci, L + 2 * PAD), dtype=x.dtype, buffer=nl.sbuf)
        xp[:, PAD:PAD + L] = nl.load(x[b, 0:Ci, 0:L])
        acc = nl.zeros((Co, L), nl.float32, buffer=nl.psum)
        for t in nl.affine_range(KW):
            nisa.nc_matmul(acc, w_taps[:, t, :], xp[:, t:t + L], accumulate=True)
        act = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(act, op=nl.relu, data=acc, bias=b_sb)
        pooled = nl.maximum(act[0:Co, 0:0 + 2 * (LO - 1) + 1:2], act[0:Co, 1:1 + 2 * (LO - 1) + 1:2], dtype=out.dtype)
        nl.store(out[b, 0:Co, 0:LO], value=pooled)
    return out
