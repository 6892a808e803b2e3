import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def linear_residual_kernel(x, r, weight, bias):
    """x @ weight.T + bias + r for x [M, K], r [M, N], weight [N, K], bias [N].

    M, K multiples of 128; N <= 512.  The bias and the residual are added while the
    accumulator is evacuated from PSUM.
    """
    M, K = x.shape
    N = weight.shape[0]
    P = nl.tile_size.pmax
    n_m = M // P
    n_k = K // P
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)

    w_t = nl.ndarray((P, n_k, N), dtype=weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])

    bias_row = nl.load(bias.reshape((1, N)))
    bias_b = nl.broadcast_to(bias_row, shape=(P, N))

    for m in nl.affine_range(n_m):
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t = nl.load_transpose2d(x[m * P:(m + 1) * P, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        r_sb = nl.load(r[m * P:(m + 1) * P, 0:N])
        with_bias = nl.add(acc, bias_b, dtype=nl.float32)
        res = nl.add(with_bias, r_sb, dtype=out.dtype)
        nl.store(out[m * P:(m + 1) * P, 0:N], value=res)
    return out
