import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

WINDOW = 256
MASK_VALUE = -9984.0


@nki.jit
def sliding_window_attention_kernel(q, k, v):
    """Sliding-window causal attention (key j visible to query i iff i - WINDOW < j <= i).

    float32 q, k, v [B, S, D], S and WINDOW multiples of 128.  Query tile i only touches key
    blocks i - WINDOW/128 .. i (the query-tile loop is unrolled, so the block range is
    static); both window edges are applied with affine_select on global indices, so the
    cost grows with S * WINDOW instead of S^2.
    """
    B, S, D = q.shape
    P = nl.tile_size.pmax
    n_q = S // P
    wb = WINDOW // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    for b in nl.affine_range(B):
        k_t = nl.load_transpose2d(k[b, 0:S, 0:D])                              # [D, S]
        v_sb = nl.ndarray((P, n_q, D), dtype=v.dtype, buffer=nl.sbuf)
        for j in nl.affine_range(n_q):
            v_sb[:, j, :] = nl.load(v[b, j * P:(j + 1) * P, 0:D])
        for i in nl.static_range(n_q):
            j0 = max(0, i - wb)
            c0 = j0 * P
            ncols = (i + 1) * P - c0
            q_t = nl.load_transpose2d(q[b, i * P:(i + 1) * P, 0:D])
            nc_matmul_out = nl.ndarray((q_t.shape[1], k_t[:, c0:c0 + ncols].shape[1]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(nc_matmul_out, q_t, k_t[:, c0:c0 + ncols])
            s_sb = nl.multiply(nc_matmul_out, scale)   # [128, ncols] <= 384
            # upper edge: key <= query
            s_u = nl.ndarray(s_sb[0:P, 0:ncols].shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.affine_select(s_u, [[-1, ncols]], 1, s_sb[0:P, 0:ncols], MASK_VALUE, cmp_op=nl.greater_equal, offset=i * P - c0)
            # lower edge: key > query - WINDOW
            s_m = nl.ndarray(s_u[0:P, 0:ncols].shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.affine_select(s_m, [[1, ncols]], -1, s_u[0:P, 0:ncols], MASK_VALUE, cmp_op=nl.greater, offset=c0 - i * P + WINDOW)
            mx = nl.ndarray((s_m.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_reduce(mx, nl.maximum, data=s_m, axis=(1,))
            p = nl.ndarray(s_m.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(p, op=nl.exp, data=s_m, bias=nl.multiply(mx, -1.0))
            inv = nl.reciprocal(nl.sum(p, axis=[1]))
            o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
            for jj in nl.static_range(i + 1 - j0):
                nc_transpose_out = nl.ndarray((p[:, jj * P:(jj + 1) * P].shape[1], p[:, jj * P:(jj + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out, p[:, jj * P:(jj + 1) * P])
                p_t = nl.copy(nc_transpose_out)
                nisa.nc_matmul(o_ps, p_t, v_sb[:, j0 + jj, :], accumulate=True)
            o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
            nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=inv)
            nl.store(out[b, i * P:(i + 1) * P, 0:D], value=o)
    return out
