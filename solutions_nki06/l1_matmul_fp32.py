import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def matmul_kernel(a, b):
    """out = a @ b for float32 a [256, 512], b [512, 384].

    The Tensor Engine contracts over the partition axis, so each 128 x 128 block of a is
    transposed on chip (nc_transpose into PSUM, copied to SBUF) to become the stationary
    operand; b's [128, 384] row blocks are the moving operand. Partial products over the four
    K blocks accumulate in one fp32 PSUM tile per 128 output rows.
    """
    M, K = a.shape
    _, N = b.shape
    out = nl.ndarray((M, N), dtype=a.dtype, buffer=nl.shared_hbm)
    TM = nl.tile_size.gemm_stationary_fmax  # 128
    TK = nl.tile_size.pmax                  # 128
    for m in nl.affine_range(M // TM):
        a_rows = nl.load(a[m * TM:(m + 1) * TM, 0:K])
        acc = nl.zeros((TM, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(K // TK):
            nc_transpose_out = nl.ndarray((a_rows[:, k * TK:(k + 1) * TK].shape[1], a_rows[:, k * TK:(k + 1) * TK].shape[0]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, a_rows[:, k * TK:(k + 1) * TK])
            a_t = nl.copy(nc_transpose_out, dtype=a.dtype)
            b_tile = nl.load(b[k * TK:(k + 1) * TK, 0:N])
            nisa.nc_matmul(acc, a_t, b_tile, accumulate=True)
        nl.store(out[m * TM:(m + 1) * TM, 0:N], value=nl.copy(acc, dtype=out.dtype))
    return out
