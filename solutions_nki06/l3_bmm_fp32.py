import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def bmm_kernel(a, b):
    """Batched matmul a [B, M, K] @ b [B, K, N] -> [B, M, N]; M, K multiples of 128, N <= 512.

    Per batch and 128-row tile of a: the a tile is loaded transposed ([K-slab, M]) as the
    stationary operand, b's [K-slab, N] rows are the moving operand, PSUM accumulates.
    """
    B, M, K = a.shape
    N = b.shape[2]
    P = nl.tile_size.pmax
    n_m = M // P
    n_k = K // P
    out = nl.ndarray((B, M, N), dtype=a.dtype, buffer=nl.shared_hbm)

    for bi in nl.affine_range(B):
        b_sb = nl.ndarray((P, n_k, N), dtype=b.dtype, buffer=nl.sbuf)
        for k in nl.affine_range(n_k):
            b_sb[:, k, :] = nl.load(b[bi, k * P:(k + 1) * P, 0:N])
        for m in nl.affine_range(n_m):
            acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
            for k in nl.affine_range(n_k):
                a_t = nl.load_transpose2d(a[bi, m * P:(m + 1) * P, k * P:(k + 1) * P])
                nisa.nc_matmul(acc, a_t, b_sb[:, k, :], accumulate=True)
            nl.store(out[bi, m * P:(m + 1) * P, 0:N], value=nl.copy(acc, dtype=out.dtype))
    return out
