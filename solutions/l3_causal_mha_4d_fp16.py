import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

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

    i_p = nl.arange(P)[:, None]
    i_s = nl.arange(S)[None, :]
    for b in nl.affine_range(B):
        for h in nl.affine_range(H):
            k_t = nl.load_transpose2d(k[b, h, 0:S, 0:D])       # [D, S]
            v_sb = nl.ndarray((P, n_kb, D), dtype=v.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_kb):
                v_sb[:, j, :] = nl.load(v[b, h, j * P:(j + 1) * P, 0:D])
            for i in nl.affine_range(n_q):
                q_t = nl.load_transpose2d(q[b, h, i * P:(i + 1) * P, 0:D])
                s_ps = nisa.nc_matmul(q_t, k_t)
                s_sb = nl.multiply(s_ps, scale, dtype=nl.float32)
                s_masked = nisa.affine_select(pred=(i * P + i_p - i_s >= 0),
                                              on_true_tile=s_sb[i_p, i_s],
                                              on_false_value=MASK_VALUE)
                row_max = nisa.tensor_reduce(np.max, data=s_masked, axis=(1,), dtype=nl.float32)
                neg_max = nl.multiply(row_max, -1.0)
                p = nisa.activation(op=nl.exp, data=s_masked, bias=neg_max, dtype=nl.float32)
                inv_sum = nl.reciprocal(nl.sum(p, axis=[1]))

                o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                for j in nl.affine_range(n_kb):
                    p_t = nl.copy(nisa.nc_transpose(p[:, j * P:(j + 1) * P]), dtype=v.dtype)
                    o_ps += nisa.nc_matmul(p_t, v_sb[:, j, :])
                o = nisa.tensor_scalar(data=o_ps, op0=nl.multiply, operand0=inv_sum, dtype=out.dtype)
                nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
