import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def conv_pointwise2d_kernel(x, conv_weight):
    """1x1 Conv2d without bias: out[b, o, p] = sum_i w[o, i] x[b, i, p], bf16 x [B, Ci, H, W], Ci <= 128.

    A pointwise convolution is a matmul over channels: input channels are the contraction
    (partition) axis, pixels the moving free axis in chunks of at most 512, and the output
    channels are split into blocks of 128 (the stationary operand is the transposed weight
    block [Ci, <=128]).  PSUM accumulates in float32.
    """
    B, Ci, H, W = x.shape
    Co = conv_weight.shape[0]
    HW = H * W
    P = nl.tile_size.pmax
    FB = 450                                                           # pixel chunk (HW % FB == 0)
    out = nl.ndarray((B, Co, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((B, Ci, HW))
    outr = out.reshape((B, Co, HW))
    w2 = conv_weight.reshape((Co, Ci))

    n_ob = (Co + P - 1) // P
    wt = nl.ndarray((Ci, n_ob, P), dtype=conv_weight.dtype, buffer=nl.sbuf)
    for ob in nl.static_range(n_ob):
        o0 = ob * P
        rows = min(P, Co - o0)
        blk = nl.load(w2[o0:o0 + rows, 0:Ci])
        nc_transpose_out = nl.ndarray((blk.shape[1], blk.shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, blk)
        wt[:, ob, 0:rows] = nl.copy(nc_transpose_out, dtype=conv_weight.dtype)

    for b in nl.affine_range(B):
        for j in nl.affine_range(HW // FB):
            xt = nl.load(xr[b, 0:Ci, j * FB:(j + 1) * FB])
            for ob in nl.static_range(n_ob):
                o0 = ob * P
                rows = min(P, Co - o0)
                acc = nl.ndarray((wt[:, ob, 0:rows].shape[1], xt.shape[1]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(acc, wt[:, ob, 0:rows], xt)              # [rows, FB] in PSUM
                nl.store(outr[b, o0:o0 + rows, j * FB:(j + 1) * FB], value=nl.copy(acc, dtype=out.dtype))
    return out
