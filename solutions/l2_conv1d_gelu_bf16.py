import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


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
    i_co = nl.arange(Co)[:, None]
    i_ci = nl.arange(Ci)[None, :]
    w_taps = nl.ndarray((Ci, K, Co), dtype=conv_weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(K):
        w_taps[:, k, :] = nl.copy(nisa.nc_transpose(w_sb[i_co, i_ci * K + k]), dtype=conv_weight.dtype)
    cb = nl.load(conv_bias.reshape((Co, 1)), dtype=nl.float32)

    for b in nl.affine_range(B):
        xp = nl.zeros((Ci, L + K - 1), dtype=x.dtype, buffer=nl.sbuf)
        xp[:, pad:pad + L] = nl.load(x[b])
        acc = nl.zeros((Co, L), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K):
            acc += nisa.nc_matmul(w_taps[:, k, :], xp[:, k:k + L])
        res = nisa.activation(op=nl.gelu, data=acc, bias=cb, dtype=out.dtype)
        nl.store(out[b], value=res)
    return out
