import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def matmul_at_kernel(a, b):
    """out = a.T @ b for float16 a [256, 384] (K x M) and b [256, 512] (K x N).

    a is already stored with the contraction axis first, which is the layout the Tensor
    Engine's stationary operand needs: a [128, 128] block of a and a [128, 512] block of b go
    straight into nc_matmul, and the two K blocks accumulate in an fp32 PSUM tile.
    """
    K, M = a.shape
    _, N = b.shape
    out = nl.ndarray((M, N), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for m in nl.affine_range(M // P):
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K // P):
            a_blk = nl.load(a[k * P:(k + 1) * P, m * P:(m + 1) * P])
            b_blk = nl.load(b[k * P:(k + 1) * P, 0:N])
            nisa.nc_matmul(acc, a_blk, b_blk, accumulate=True)
        nl.store(out[m * P:(m + 1) * P, 0:N], value=nl.copy(acc, dtype=out.dtype))
    return out
