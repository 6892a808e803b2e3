import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def attention_mil_pool_kernel(x, v_weight, w_weight):
    """(sum_t a_t x_t, a) with a = softmax over t of w^T tanh(V x_t), x [B, T, D];
    T a multiple of 128 and <= 512, D <= 128, attention width L <= 128.

    Per bag, per 128-instance block: tanh(V x^T) [L, 128] is one matmul (D contracts on
    partitions) and one activation; w^T contracts L to give a [1, 128] score row.  The
    softmax then runs along the free axis of one [1, T] row.  The pooled vector is a
    contraction over instances: the transposed weight block a^T [128, 1] is the stationary
    operand against the [128, D] instance block, accumulated in PSUM into a [1, D] row.
    """
    B, T, D = x.shape
    L = v_weight.shape[0]
    P = nl.tile_size.pmax
    n_t = T // P
    z_out = nl.ndarray((B, D), dtype=x.dtype, buffer=nl.shared_hbm)
    a_out = nl.ndarray((B, T), dtype=x.dtype, buffer=nl.shared_hbm)

    v_t = nl.load_transpose2d(v_weight[0:L, 0:D])                         # [D, L]
    w_t = nl.load_transpose2d(w_weight[0:1, 0:L])                         # [L, 1]

    for b in nl.affine_range(B):
        x_blk = nl.ndarray((P, n_t, D), dtype=x.dtype, buffer=nl.sbuf)
        scores = nl.ndarray((1, T), dtype=nl.float32, buffer=nl.sbuf)
        for j in nl.affine_range(n_t):
            x_blk[:, j, :] = nl.load(x[b, j * P:(j + 1) * P, 0:D])
            x_t = nl.load_transpose2d(x[b, j * P:(j + 1) * P, 0:D])       # [D, 128]
            nc_matmul_out = nl.ndarray((v_t.shape[1], x_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(nc_matmul_out, v_t, x_t)
            hid = nl.tanh(nc_matmul_out, dtype=nl.float32)     # [L, 128]
            nc_matmul_out2 = nl.ndarray((w_t.shape[1], hid.shape[1]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(nc_matmul_out2, w_t, hid)
            scores[:, j * P:(j + 1) * P] = nl.copy(nc_matmul_out2)
        neg_max = nl.multiply(nl.max(scores, axis=[1]), -1.0)
        e = nl.ndarray(scores.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(e, op=nl.exp, data=scores, bias=neg_max)
        a = nl.ndarray(e.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(a, data=e, op0=nl.multiply, operand0=nl.reciprocal(nl.sum(e, axis=[1])))
        nl.store(a_out[b:b + 1, 0:T], value=a)

        z_ps = nl.zeros((1, D), nl.float32, buffer=nl.psum)
        for j in nl.affine_range(n_t):
            nc_transpose_out = nl.ndarray((a[:, j * P:(j + 1) * P].shape[1], a[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, a[:, j * P:(j + 1) * P])
            a_col = nl.copy(nc_transpose_out)   # [128, 1]
            nisa.nc_matmul(z_ps, a_col, x_blk[:, j, :], accumulate=True)
        nl.store(z_out[b:b + 1, 0:D], value=nl.copy(z_ps, dtype=z_out.dtype))
    return z_out, a_out
