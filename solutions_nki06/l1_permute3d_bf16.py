import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def permute021_kernel(x):
    """out = x.permute(0, 2, 1) for bfloat16 x [4, 128, 192] -> [4, 192, 128].

    Per batch the [128, 192] matrix is transposed in three 64-column strips: each [128, 64]
    strip becomes a [64, 128] block of the output (the transposed result has at most 128
    partitions).
    """
    B, S, H = x.shape
    out = nl.ndarray((B, H, S), dtype=x.dtype, buffer=nl.shared_hbm)
    W = 64
    for b in nl.affine_range(B):
        for j in nl.affine_range(H // W):
            strip = nl.load(x[b, 0:S, j * W:(j + 1) * W])
            nc_transpose_out = nl.ndarray((strip.shape[1], strip.shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, strip)
            strip_t = nl.copy(nc_transpose_out, dtype=x.dtype)
            nl.store(out[b, j * W:(j + 1) * W, 0:S], value=strip_t)
    return out
