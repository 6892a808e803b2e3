import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def matmul_3d_kernel(a, b):
    """out = a @ b for bfloat16 a [4, 64, 256] and b [256, 192].

    a is viewed as 256 rows of K = 256. Each 128-row block is transposed on chip (nc_transpose
    through PSUM) per 128-wide K block to become the stationary operand; the two K blocks
    accumulate in an fp32 PSUM tile that is rounded to bfloat16 once.
    """
    N, M, K = a.shape
    _, L = b.shape
    rows = N * M
    out = nl.ndarray((N, M, L), dtype=a.dtype, buffer=nl.shared_hbm)
    a2 = a.reshape((rows, K))
    out2 = out.reshape((rows, L))
    P = nl.tile_size.pmax
    for m in nl.affine_range(rows // P):
        a_rows = nl.load(a2[m * P:(m + 1) * P, 0:K])
        acc = nl.zeros((P, L), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K // P):
            nc_transpose_out = nl.ndarray((a_rows[:, k * P:(k + 1) * P].shape[1], a_rows[:, k * P:(k + 1) * P].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, a_rows[:, k * P:(k + 1) * P])
            a_t = nl.copy(nc_transpose_out, dtype=a.dtype)
            b_blk = nl.load(b[k * P:(k + 1) * P, 0:L])
            nisa.nc_matmul(acc, a_t, b_blk, accumulate=True)
        nl.store(out2[m * P:(m + 1) * P, 0:L], value=nl.copy(acc, dtype=out.dtype))
    return out
