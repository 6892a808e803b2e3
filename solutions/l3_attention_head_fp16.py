import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def attention_head_awkward_kernel(q, k, v):
    """softmax(q @ k.T / sqrt(D)) @ v for one fp16 head with S not a multiple of 128 (S <= 512).

    Query tiles are loaded with a partition mask and transposed on the Tensor Engine;
    the key axis is split into full 128-key blocks plus one static remainder block.
    Only the valid query rows are stored.
    """
    S, D = q.shape
    P = nl.tile_size.pmax
    n_q = (S + P - 1) // P
    kb_full = S // P
    kb_rem = S - kb_full * P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    k_t = nl.load_transpose2d(k[0:S, 0:D])                 # [D, S]
    v_sb = nl.ndarray((P, kb_full, D), dtype=v.dtype, buffer=nl.sbuf)
    for j in nl.affine_range(kb_full):
        v_sb[:, j, :] = nl.load(v[j * P:(j + 1) * P, 0:D])
    v_rem = nl.load(v[kb_full * P:S, 0:D])                 # [kb_rem, D]

    i_p = nl.arange(P)[:, None]
    i_d = nl.arange(D)[None, :]
    for i in nl.affine_range(n_q):
        q_sb = nl.load(q[i * P + i_p, i_d], mask=(i * P + i_p < S))
        q_t = nl.copy(nisa.nc_transpose(q_sb), dtype=q.dtype)   # [D, 128]
        s_ps = nisa.nc_matmul(q_t, k_t)                          # [128, S]
        row_max = nisa.tensor_reduce(np.max, data=s_ps, axis=(1,), dtype=nl.float32)
        neg_max = nl.multiply(row_max, -scale)
        p = nisa.activation(op=nl.exp, data=s_ps, bias=neg_max, scale=scale, dtype=nl.float32)
        inv_sum = nl.reciprocal(nl.sum(p, axis=[1]))

        o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
        for j in nl.affine_range(kb_full):
            p_t = nl.copy(nisa.nc_transpose(p[:, j * P:(j + 1) * P]), dtype=v.dtype)
            o_ps += nisa.nc_matmul(p_t, v_sb[:, j, :])
        if kb_rem > 0:
            p_t_rem = nl.copy(nisa.nc_transpose(p[:, kb_full * P:S]), dtype=v.dtype)  # [kb_rem, 128]
            o_ps += nisa.nc_matmul(p_t_rem, v_rem)
        o = nisa.tensor_scalar(data=o_ps, op0=nl.multiply, operand0=inv_sum, dtype=out.dtype)
        nl.store(out[i * P + i_p, i_d], value=o, mask=(i * P + i_p < S))
    return out
