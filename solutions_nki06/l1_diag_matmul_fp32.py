import nki
import nki.language as nl
import nki.isa as nisa
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
    for t in nl.affine_range((M + P - 1) // P):
        scale = nl.load(a2[t * P:min(M, t * P + P), 0:1])
        rows = nl.load(b[t * P:min(M, t * P + P), 0:N])
        nl.store(out[t * P:min(M, t * P + P), 0:N], value=nl.multiply(rows, scale))
    return out
