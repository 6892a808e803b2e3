import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

MASK_VALUE = -9984.0


@nki.jit
def causal_attention_head_kernel(q, k, v):
    """Causal softmax(q @ k.T / sqrt(D)) @ v for one head; S a multiple of 128, S <= 512.

    Scores are scaled while leaving PSUM, the causal mask (key index > query index) is
    applied with affine_select on the global query index, and the masked probabilities
    (exactly zero after exp) take part in the P @ V block accumulation.
    """
    S, D = q.shape
    P = nl.tile_size.pmax
    n_q = S // P
    n_kb = S // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    k_t = nl.load_transpose2d(k[0:S, 0:D])                 # [D, S]
    v_sb = nl.ndarray((P, n_kb, D), dtype=v.dtype, buffer=nl.sbuf)
    for j in nl.affine_range(n_kb):
        v_sb[:, j, :] = nl.load(v[j * P:(j + 1) * P, 0:D])

    i_p = nl.arange(P)[:, None]
    i_s = nl.arange(S)[None, :]
    for i in nl.affine_range(n_q):
        q_t = nl.load_transpose2d(q[i * P:(i + 1) * P, 0:D])
        s_ps = nisa.nc_matmul(q_t, k_t)                          # [128, S]
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
        nl.store(out[i * P:(i + 1) * P, 0:D], value=o)
    return out
