import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gemm_bias_relu_kernel(x, weight, bias):
    """relu(x @ weight.T + bias) for x [M, K], weight [N, K], bias [N].

    M and K are multiples of 128 and N <= 512, so every output row tile is a single
    PSUM bank; the contraction runs over K in 128-row slabs accumulated in PSUM.
    """
    M, K = x.shape
    N = weight.shape[0]
    P = nl.tile_size.pmax
    n_m = M // P
    n_k = K // P
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)

    # weight.T, one [128, N] slab per contraction tile, loaded once and reused by every row tile
    w_t = nl.ndarray((P, n_k, N), dtype=weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])

    bias_row = nl.load(bias.reshape((1, N)))
    bias_b = nl.broadcast_to(bias_row, shape=(P, N))

    for m in nl.affine_range(n_m):
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            # stationary operand: x tile transposed to [K-slab, rows]
            x_t = nl.load_transpose2d(x[m * P:(m + 1) * P, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        pre = nl.add(acc, bias_b, dtype=nl.float32)
        res = nl.relu(pre, dtype=out.dtype)
        nl.store(out[m * P:(m + 1) * P, 0:N], value=res)
    return out
