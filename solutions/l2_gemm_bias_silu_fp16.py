import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gemm_bias_silu_kernel(x, weight, bias):
    """silu(x @ weight.T + bias) for x [M, K] with M not a multiple of 128.

    Row tiles are loaded with a partition mask; each 128x128 block of the row tile is
    transposed on the Tensor Engine to form the stationary operand.  Rows beyond M are
    never stored.  K is a multiple of 128 and N <= 512.
    """
    M, K = x.shape
    N = weight.shape[0]
    P = nl.tile_size.pmax
    n_m = (M + P - 1) // P
    n_k = K // P
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)

    w_t = nl.ndarray((P, n_k, N), dtype=weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(weight[0:N, k * P:(k + 1) * P])

    bias_row = nl.load(bias.reshape((1, N)), dtype=nl.float32)
    bias_b = nl.broadcast_to(bias_row, shape=(P, N))

    i_p = nl.arange(P)[:, None]
    i_k = nl.arange(K)[None, :]
    i_n = nl.arange(N)[None, :]
    for m in nl.affine_range(n_m):
        x_sb = nl.load(x[m * P + i_p, i_k], mask=(m * P + i_p < M))
        acc = nl.zeros((P, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t_ps = nisa.nc_transpose(x_sb[:, k * P:(k + 1) * P])
            x_t = nl.copy(x_t_ps, dtype=x.dtype)
            acc += nisa.nc_matmul(x_t, w_t[:, k, :])
        pre = nl.add(acc, bias_b, dtype=nl.float32)
        res = nisa.activation(op=nl.silu, data=pre, dtype=out.dtype)
        nl.store(out[m * P + i_p, i_n], value=res, mask=(m * P + i_p < M))
    return out
