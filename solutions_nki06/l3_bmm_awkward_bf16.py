import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def bmm_awkward_kernel(a, b):
    """Batched matmul a [B, M, K] @ b [B, K, N] with M <= 128, N <= 512 and K not a multiple
    of 128: full 128-row contraction slabs plus one static remainder slab, all accumulated
    in one fp32 PSUM tile per batch element; bf16 operands and output.
    """
    B, M, K = a.shape
    N = b.shape[2]
    P = nl.tile_size.pmax
    k_full = K // P
    k_rem = K - k_full * P
    out = nl.ndarray((B, M, N), dtype=a.dtype, buffer=nl.shared_hbm)

    for bi in nl.affine_range(B):
        acc = nl.zeros((M, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(k_full):
            a_t = nl.load_transpose2d(a[bi, 0:M, k * P:(k + 1) * P])     # [128, M]
            b_sb = nl.load(b[bi, k * P:(k + 1) * P, 0:N])                # [128, N]
            nisa.nc_matmul(acc, a_t, b_sb, accumulate=True)
        if k_rem > 0:
            a_r = nl.load_transpose2d(a[bi, 0:M, k_full * P:K])          # [k_rem, M]
            b_r = nl.load(b[bi, k_full * P:K, 0:N])                      # [k_rem, N]
            nisa.nc_matmul(acc, a_r, b_r, accumulate=True)
        nl.store(out[bi, 0:M, 0:N], value=nl.copy(acc, dtype=out.dtype))
    return out
