import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def conv1d_gelu_kernel(x, conv_weight, conv_bias):
    """gelu(conv1d(x, padding=K//2) + b) for bf16 x [B, Ci, L], Ci, Co <= 128, L <= 512.

    The zero-padded sequence [Ci, L + K - 1] stays in SBUF; tap k of the convolution is the
    matmul of the transposed weight slice [Ci, Co] with the window starting at column k, and
    the K taps accumulate in one PSUM tile.
    """
    B, Ci, L = x.shape
    Co, _, K = conv_weight.shape
    pad = K // 2
    out = nl.ndarray((B, Co, L), dtype=x.dtype, buffer=nl.shared_hbm)

    w_sb = nl.load(conv_weight.reshape((Co, Ci * K)))
    w_taps = nl.ndarray((Ci, K, Co), dtype=conv_weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(K):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, k:k + K * (Ci - 1) + 1:K].shape[1], w_sb[0:Co, k:k + K * (Ci - 1) + 1:K].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, k:k + K * (Ci - 1) + 1:K])
        w_taps[:, k, :] = nl.copy(nc_transpose_out, dtype=conv_weight.dtype)
    cb = nl.load(conv_bias.reshape((Co, 1)), dtype=nl.float32)

    for b in nl.affine_range(B):
        xp = nl.zeros((Ci, L + K - 1), dtype=x.dtype, buffer=nl.sbuf)
        xp[:, pad:pad + L] = nl.load(x[b])
        acc = nl.zeros((Co, L), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K):
            nisa.nc_matmul(acc, w_taps[:, k, :], xp[:, k:k + L], accumulate=True)
        res = nl.ndarray(acc.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(res, op=nl.gelu, data=acc, bias=cb)
        nl.store(out[b], value=res)
    return out
