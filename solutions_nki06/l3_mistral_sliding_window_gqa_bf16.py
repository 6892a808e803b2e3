import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

WINDOW = 512
MASK_VALUE = -9984.0


@nki.jit
def sliding_window_gqa_kernel(q, k, v):
    """Sliding-window causal GQA (key j visible to query i iff i - WINDOW < j <= i), bf16 [B, H, S, D].

    K^T and V of a KV head are loaded once for its G query heads.  Query tile i (unrolled)
    touches only key blocks i - WINDOW/128 .. i, so the cost grows with S * WINDOW; both
    window edges are applied with affine_select on global indices; softmax in fp32; P @ V
    accumulates in PSUM over the visible blocks.  S and WINDOW multiples of 128.
    """
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    G = Hq // Hkv
    P = nl.tile_size.pmax
    n_q = S // P
    wb = WINDOW // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, Hq, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    for b in nl.affine_range(B):
        for g in nl.affine_range(Hkv):
            k_t = nl.load_transpose2d(k[b, g, 0:S, 0:D])                             # [D, S]
            v_sb = nl.ndarray((P, n_q, D), dtype=v.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_q):
                v_sb[:, j, :] = nl.load(v[b, g, j * P:(j + 1) * P, 0:D])
            for r in nl.affine_range(G):
                h = g * G + r
                for i in nl.static_range(n_q):
                    j0 = max(0, i - wb)
                    c0 = j0 * P
                    ncols = (i + 1) * P - c0                                           # <= WINDOW + 128
                    q_t = nl.load_transpose2d(q[b, h, i * P:(i + 1) * P, 0:D])
                    s_sb = nl.ndarray((P, ncols), dtype=nl.float32, buffer=nl.sbuf)
                    for a0 in nl.static_range(0, ncols, 512):
                        w = min(512, ncols - a0)
                        nc_matmul_out = nl.ndarray((q_t.shape[1], k_t[:, c0 + a0:c0 + a0 + w].shape[1]), dtype=nl.float32, buffer=nl.psum)
                        nisa.nc_matmul(nc_matmul_out, q_t, k_t[:, c0 + a0:c0 + a0 + w])
                        s_sb[:, a0:a0 + w] = nl.multiply(nc_matmul_out, scale)
                    s_u = nl.ndarray(s_sb[0:P, 0:ncols].shape, dtype=nl.float32, buffer=nl.sbuf)
                    nisa.affine_select(s_u, [[-1, ncols]], 1, s_sb[0:P, 0:ncols], MASK_VALUE, cmp_op=nl.greater_equal, offset=i * P - c0)
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
                        p_t = nl.copy(nc_transpose_out, dtype=v.dtype)
                        nisa.nc_matmul(o_ps, p_t, v_sb[:, j0 + jj, :], accumulate=True)
                    o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
                    nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=inv)
                    nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
