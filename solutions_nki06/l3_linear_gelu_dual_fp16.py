import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def linear_gelu_dual_kernel(x, weight, bias):
    """h = x @ weight.T + bias and gelu_tanh(h), both returned, for fp16 x [M, K], weight [N, K].

    M, K multiples of 128, N <= 512.  The GELU is applied to the fp32 pre-activation
    before either result is rounded to fp16.
    """
    M, K = x.shape
    N = weight.shape[0]
    P = nl.tile_size.pmax
    n_m = M // P
    n_k = K // P
    h_out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)
    g_out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)

    w_t = nl.ndarray((P, n_k, N), dtype=weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])
    bias_b = nl.broadcast_to(nl.load(bias.reshape((1, N)), dtype=nl.float32), shape=(P, N))

    for m in nl.affine_range(n_m):
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t = nl.load_transpose2d(x[m * P:(m + 1) * P, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        h = nl.add(acc, bias_b, dtype=nl.float32)
        g = nl.ndarray(h.shape, dtype=g_out.dtype, buffer=nl.sbuf)
        nisa.activation(g, op=nl.gelu_apprx_tanh, data=h)
        nl.store(h_out[m * P:(m + 1) * P, 0:N], value=nl.copy(h, dtype=h_out.dtype))
        nl.store(g_out[m * P:(m + 1) * P, 0:N], value=g)
    return h_out, g_out
