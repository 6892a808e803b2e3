import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def gemm_add_relu_kernel(x, bias, gemm_weight):
    """relu(x @ W.T + bias) for float32 x [M, K] (ragged last row block), W [N, K], N <= 512.

    Arguments follow named_parameters(): the module's own bias comes before the Linear's
    weight.  The transposed weight is loaded once as [128, K / 128, N]; each row block
    accumulates over K in PSUM, then the bias row is added and ReLU applied.
    """
    M, K = x.shape
    N = gemm_weight.shape[0]
    P = nl.tile_size.pmax
    n_k = K // P
    out = nl.ndarray((M, N), dtype=x.dtype, buffer=nl.shared_hbm)
    w_t = nl.ndarray((P, n_k, N), dtype=gemm_weight.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n_k):
        w_t[:, k, :] = nl.load_transpose2d(gemm_weight[0:N, k * P:(k + 1) * P])
    bias_b = nl.broadcast_to(nl.load(bias.reshape((1, N))), shape=(P, N))
    for m0 in nl.static_range(0, M, P):
        rows = min(P, M - m0)
        acc = nl.zeros((rows, N), nl.float32, buffer=nl.psum)
        for k in nl.affine_range(n_k):
            x_t = nl.load_transpose2d(x[m0:m0 + rows, k * P:(k + 1) * P])
            nisa.nc_matmul(acc, x_t, w_t[:, k, :], accumulate=True)
        res = nl.maximum(nl.add(acc, bias_b[0:rows, 0:N]), 0.0, dtype=out.dtype)
        nl.store(out[m0:m0 + rows, 0:N], value=res)
    return out
