import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


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
    i_co = nl.arange(Co)[:, None]
    i_ci = nl.arange(Ci)[None, :]
    w_taps = nl.ndarray((Ci, KW, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for t in nl.affine_range(KW):
        w_taps[:, t, :] = nl.copy(nisa.nc_transpose(w_sb[i_co, i_ci * KW + t]), dtype=weight.dtype)
    b_sb = nl.load(bias.reshape((Co, 1)))
    i_lo = nl.arange(LO)[None, :]

    for b in nl.affine_range(B):
        xp = nl.zeros((Ci, L + 2 * PAD), dtype=x.dtype, buffer=nl.sbuf)
        xp[:, PAD:PAD + L] = nl.load(x[b, 0:Ci, 0:L])
        acc = nl.zeros((Co, L), nl.float32, buffer=nl.psum)
        for t in nl.affine_range(KW):
            acc += nisa.nc_matmul(w_taps[:, t, :], xp[:, t:t + L])
        act = nisa.activation(op=nl.relu, data=acc, bias=b_sb, dtype=nl.float32)
        pooled = nl.maximum(act[i_co, 2 * i_lo], act[i_co, 2 * i_lo + 1], dtype=out.dtype)
        nl.store(out[b, 0:Co, 0:LO], value=pooled)
    return out
