import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

MASK_VALUE = -9984.0


@nki.jit
def causal_mha_4d_kernel(q, k, v):
    """Causal multi-head attention on fp16 [B, H, S, D] tensors (S a multiple of 128, S <= 512).

    Per (batch, head, 128-query tile): scaled scores, affine_select causal mask on the
    global query index, fp32 row softmax, and P @ V over 128-key blocks.
    """
    B, H, S, D = q.shape
    P = nl.tile_size.pmax
    n_q = S // P
    n_kb = S // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, H, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    for b in nl.affine_range(B):
        for h in nl.affine_range(H):
            k_t = nl.load_transpose2d(k[b, h, 0:S, 0:D])       # [D, S]
            v_sb = nl.ndarray((P, n_kb, D), dtype=v.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_kb):
                v_sb[:, j, :] = nl.load(v[b, h, j * P:(j + 1) * P, 0:D])
            for i in nl.affine_range(n_q):
                q_t = nl.load_transpose2d(q[b, h, i * P:(i + 1) * P, 0:D])
                s_ps = nl.ndarray((q_t.shape[1], k_t.shape[1]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(s_ps, q_t, k_t)
                s_sb = nl.multiply(s_ps, scale, dtype=nl.float32)
                s_masked = nl.ndarray(s_sb[0:P, 0:S].shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.affine_select(s_masked, [[-1, S]], 1, s_sb[0:P, 0:S], MASK_VALUE, cmp_op=nl.greater_equal, offset=i * P)
                row_max = nl.ndarray((s_masked.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_reduce(row_max, nl.maximum, data=s_masked, axis=(1,))
                neg_max = nl.multiply(row_max, -1.0)
                p = nl.ndarray(s_masked.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(p, op=nl.exp, data=s_masked, bias=neg_max)
                inv_sum = nl.reciprocal(nl.sum(p, axis=[1]))

                o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                for j in nl.affine_range(n_kb):
                    nc_transpose_out = nl.ndarray((p[:, j * P:(j + 1) * P].shape[1], p[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out, p[:, j * P:(j + 1) * P])
                    p_t = nl.copy(nc_transpose_out, dtype=v.dtype)
                    nisa.nc_matmul(o_ps, p_t, v_sb[:, j, :], accumulate=True)
                o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
                nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=inv_sum)
                nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
