import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def bmm_kernel(a, b):
    """out[i] = a[i] @ b[i] for float16 a [4, 128, 256], b [4, 256, 128].

    Per batch: a[i] is loaded once and its two 128 x 128 K-blocks are transposed on chip
    to serve as stationary operands; the K-blocks of b[i] stream through as moving operands
    and accumulate into one fp32 PSUM tile.
    """
    B, M, K = a.shape
    _, _, N = b.shape
    out = nl.ndarray((B, M, N), dtype=a.dtype, buffer=nl.shared_hbm)
    TK = nl.tile_size.pmax
    for i in nl.affine_range(B):
        a_tile = nl.load(a[i, 0:M, 0:K])
        acc = nl.zeros((M, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K // TK):
            nc_transpose_out = nl.ndarray((a_tile[:, k * TK:(k + 1) * TK].shape[1], a_tile[:, k * TK:(k + 1) * TK].shape[0]), dtype=nl.float16, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, a_tile[:, k * TK:(k + 1) * TK])
            a_t = nl.copy(nc_transpose_out, dtype=a.dtype)
            b_tile = nl.load(b[i, k * TK:(k + 1) * TK, 0:N])
            nisa.nc_matmul(acc, a_t, b_tile, accumulate=True)
        nl.store(out[i, 0:M, 0:N], value=nl.copy(acc, dtype=out.dtype))
    return out
