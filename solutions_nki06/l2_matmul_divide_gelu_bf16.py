import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


DIVISOR = 10.0


@nki.jit
def matmul_divide_gelu_kernel(x, linear_weight, linear_bias):
    """gelu((x @ W.T + b) / DIVISOR) for bfloat16 x [M, K] (ragged last row block), W [N, K].

    K a multiple of 128, N <= 512.  The transposed weight is loaded once; each row block's
    product accumulates in PSUM in float32, the bias row is added and the Scalar engine
    applies the division as its input scale before the exact GELU.
    """
    M, K = x.shape
    N = linear_weight.shape[0]
    P = nl.tile_size.pmax
    n_k = K // P
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)
    w_t = nl.ndarray((P, n_k, N), dtype=linear_weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(linear_weight[0:N, k * P:(k + 1) * P])
    bias_b = nl.broadcast_to(nl.load(linear_bias.reshape((1, N)), dtype=nl.float32), shape=(P, N))

    for m0 in nl.static_range(0, M, P):
        rows = min(P, M - m0)
        acc = nl.zeros((rows, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t = nl.load_transpose2d(x[m0:m0 + rows, k * P:(k + 1) * P])          # [128, rows]
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        pre = nl.add(acc, bias_b[0:rows, 0:N])
        res = nl.ndarray(pre.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(res, op=nl.gelu, data=pre, scale=1.0 / DIVISOR)
        nl.store(out[m0:m0 + rows, 0:N], value=res)
    return out
