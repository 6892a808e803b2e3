import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import numpy as np


@nki.jit
def diag_matmul_kernel(a, b):
    """out = diag(a) @ b for float32 a [500], b [500, 256]: row i of b scaled by a[i].

    No matrix is formed: a is loaded as a [128, 1] column per row tile (128 + 128 + 128 and a
    masked 116-row remainder) and broadcast along the free axis.
    """
    M, N = b.shape
    out = nl.ndarray((M, N), dtype=b.dtype, buffer=nl.shared_hbm)
    a2 = a.reshape((M, 1))
    P = nl.tile_size.pmax
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(N)[None, :]
    i_1 = nl.arange(1)[None, :]
    for t in nl.affine_range((M + P - 1) // P):
        valid = t * P + i_p < M
        scale = nl.load(a2[t * P + i_p, i_1], mask=valid)
        rows = nl.load(b[t * P + i_p, i_f], mask=valid)
        nl.store(out[t * P + i_p, i_f], value=nl.multiply(rows, scale, mask=valid), mask=valid)
    return out
