import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gemm_bias_relu_awkward_kernel(x, weight, bias):
    """relu(x @ weight.T + bias) with M <= 128, N <= 512 and K not a multiple of 128.

    The contraction is split into full 128-row slabs plus one static remainder slab
    (K % 128 partitions); all slabs accumulate into the same PSUM tile.
    """
    M, K = x.shape
    N = weight.shape[0]
    P = nl.tile_size.pmax
    k_full = K // P
    k_rem = K - k_full * P
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)

    acc = nl.zeros((M, N), nl.float32, buffer=nl.psum)
    for k in nl.affine_range(k_full):
        x_t = nl.load_transpose2d(x[0:M, k * P:(k + 1) * P])          # [128, M]
        w_t = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])     # [128, N]
        nisa.nc_matmul(acc, x_t, w_t, accumulate=True)
    if k_rem > 0:
        x_r = nl.load_transpose2d(x[0:M, k_full * P:K])               # [k_rem, M]
        w_r = nl.load_transpose2d(weight[0:N, k_full * P:K])          # [k_rem, N]
        nisa.nc_matmul(acc, x_r, w_r, accumulate=True)

    bias_row = nl.load(bias.reshape((1, N)))
    bias_b = nl.broadcast_to(bias_row, shape=(M, N))
    pre = nl.add(acc, bias_b, dtype=nl.float32)
    res = nl.relu(pre, dtype=out.dtype)
    nl.store(out[0:M, 0:N], value=res)
    return out
