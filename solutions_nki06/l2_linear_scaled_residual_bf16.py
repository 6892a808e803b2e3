import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

ALPHA = 0.5  # the Model's constructor constant


@nki.jit
def linear_scaled_residual_kernel(x, r, weight, bias):
    """r + ALPHA * (x @ weight.T + bias) for bf16 x [M, K], r [M, N], weight [N, K], bias [N].

    M, K multiples of 128 (here K is a single slab), N <= 512; fp32 accumulation.
    """
    M, K = x.shape
    N = weight.shape[0]
    P = nl.tile_size.pmax
    n_m = M // P
    n_k = K // P
    out = nl.ndarray((M, N), dtype=r.dtype, buffer=nl.shared_hbm)

    w_t = nl.ndarray((P, n_k, N), dtype=weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])

    bias_row = nl.load(bias.reshape((1, N)), dtype=nl.float32)
    bias_b = nl.broadcast_to(bias_row, shape=(P, N))

    for m in nl.affine_range(n_m):
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t = nl.load_transpose2d(x[m * P:(m + 1) * P, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        r_sb = nl.load(r[m * P:(m + 1) * P, 0:N], dtype=nl.float32)
        lin = nl.add(acc, bias_b, dtype=nl.float32)
        # (lin * ALPHA) + r in one Vector Engine instruction
        res = nl.ndarray(lin.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.scalar_tensor_tensor(res, data=lin, op0=nl.multiply, operand0=ALPHA, op1=nl.add, operand1=r_sb)
        nl.store(out[m * P:(m + 1) * P, 0:N], value=res)
    return out
