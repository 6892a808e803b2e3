import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gemm_bias_gelu_kernel(x, weight, bias):
    """gelu(x @ weight.T + bias), exact erf GELU, bf16 operands with fp32 accumulation.

    x [M, K], weight [N, K], bias [N]; M, K multiples of 128, N <= 512 (one PSUM bank).
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

    bias_row = nl.load(bias.reshape((1, N)), dtype=nl.float32)
    bias_b = nl.broadcast_to(bias_row, shape=(P, N))

    for m in nl.affine_range(n_m):
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t = nl.load_transpose2d(x[m * P:(m + 1) * P, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        pre = nl.add(acc, bias_b, dtype=nl.float32)
        res = nl.ndarray(pre.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.activation(res, op=nl.gelu, data=pre)
        nl.store(out[m * P:(m + 1) * P, 0:N], value=res)
    return out
