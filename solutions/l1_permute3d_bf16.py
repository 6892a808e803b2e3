import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
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
            strip_t = nl.copy(nisa.nc_transpose(strip), dtype=x.dtype)
            nl.store(out[b, j * W:(j + 1) * W, 0:S], value=strip_t)
    return out
