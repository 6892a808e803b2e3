import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def cumsum_seq_kernel(x):
    """Inclusive prefix sum along dim 1 of bf16 x [B, S, D] (D <= 512, S not a multiple of 128).

    The scanned axis is the partition axis, so the prefix sum is a matmul with a 0/1
    upper-triangular matrix U (U[s', s] = 1 iff s' <= s): out = U.T @ x, blockwise over
    128-row blocks with fp32 PSUM accumulation.  Block (k, m) of U is generated with
    affine_select on the global indices; the S % 128 tail rows form one static block.
    """
    B, S, D = x.shape
    P = nl.tile_size.pmax
    n_full = S // P
    rem = S - n_full * P
    out = nl.ndarray((B, S, D), dtype=x.dtype, buffer=nl.shared_hbm)

    ones = nl.ones((P, P), dtype=x.dtype, buffer=nl.sbuf)
    # lower-right tail block of U (upper triangle incl. diagonal)
    tri_rem = nl.ndarray(ones[0:rem, 0:rem].shape, dtype=nl.bfloat16, buffer=nl.sbuf)
    nisa.affine_select(tri_rem, [[1, rem]], -1, ones[0:rem, 0:rem], 0.0, cmp_op=nl.greater_equal, offset=0)

    for b in nl.affine_range(B):
        x_sb = nl.ndarray((P, n_full, D), dtype=x.dtype, buffer=nl.sbuf)
        for k in nl.affine_range(n_full):
            x_sb[:, k, :] = nl.load(x[b, k * P:(k + 1) * P, 0:D])
        x_rem = nl.load(x[b, n_full * P:S, 0:D])                       # [rem, D]

        for m in nl.affine_range(n_full):
            acc = nl.zeros((P, D), nl.float32, buffer=nl.psum)
            for k in nl.affine_range(n_full):
                u_km = nl.ndarray(ones[0:P, 0:P].shape, dtype=nl.bfloat16, buffer=nl.sbuf)
                nisa.affine_select(u_km, [[1, P]], -1, ones[0:P, 0:P], 0.0, cmp_op=nl.greater_equal, offset=m * P - k * P)
                nisa.nc_matmul(acc, u_km, x_sb[:, k, :], accumulate=True)
            nl.store(out[b, m * P:(m + 1) * P, 0:D], value=nl.copy(acc, dtype=out.dtype))

        # tail rows: every full block contributes completely, plus the triangular tail block
        acc_r = nl.zeros((rem, D), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_full):
            nisa.nc_matmul(acc_r, ones[:, 0:rem], x_sb[:, k, :], accumulate=True)
        nisa.nc_matmul(acc_r, tri_rem, x_rem, accumulate=True)
        nl.store(out[b, n_full * P:S, 0:D], value=nl.copy(acc_r, dtype=out.dtype))
    return out
