# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def attention_head_awkward_kernel(q, k, v):
    """softmax(q @ k.T / sqrt(D)) @ v for one fp16 head with S not a multiple of 128 (S <= 512).

    Query tile i covers rows i * P .. i * P + rows, rows = min(P, S - i * P); 0.6 has no
    masks, so the query tile, its transpose, the scores, the softmax and the PSUM output
    of the last tile all have `rows` partitions and only valid rows are stored. The key
    axis is split into full 128-key blocks plus one static remainder block; the first
    P @ V matmul overwrites the PSUM output and the others add to it.
    """
    S, D = q.shape
    P = nl.tile_size.pmax
    n_q = (S + P - 1) // P
    kb_full = S // P
    kb_rem = S - kb_full * P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    k_t = nl.load_transpose2d(k[0:S, 0:D])                 # [D, S]
    if kb_full > 0:
        v_sb = nl.ndarray((P, kb_full, D), dtype=v.dtype, buffer=nl.sbuf)
        for j in range(kb_full):
            nisa.dma_copy(dst=v_sb[0:P, j, 0:D], src=v[j * P:(j + 1) * P, 0:D])
    if kb_rem > 0:
        v_rem = nl.ndarray((kb_rem, D), dtype=v.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=v_rem, src=v[kb_full * P:S, 0:D])

    for i in range(n_q):
        r0 = i * P
        rows = min(P, S - r0)
        q_sb = nl.ndarray((rows, D), dtype=q.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=q_sb, src=q[r0:r0 + rows, 0:D])
        qt_ps = nl.ndarray((D, rows), dtype=q.dtype, buffer=nl.psum)
        nisa.nc_transpose(dst=qt_ps, data=q_sb)
        q_t = nl.copy(qt_ps, dtype=q.dtype)                   # [D, rows]
        s_ps = nl.ndarray((rows, S), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(dst=s_ps, stationary=q_t, moving=k_t)  # [rows, S]
        row_max = nl.ndarray((rows, 1), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_reduce(dst=row_max, op=nl.maximum, data=s_ps, axis=1)
        neg_max = nl.multiply(row_max, -scale)
        p = nl.ndarray((rows, S), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(dst=p, op=nl.exp, data=s_ps, bias=neg_max, scale=scale)
        inv_sum = nl.reciprocal(nl.sum(p, axis=1, keepdims=True))

        o_ps = nl.ndarray((rows, D), dtype=nl.float32, buffer=nl.psum)
        for j in range(kb_full):
            pt_ps = nl.ndarray((P, rows), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_transpose(dst=pt_ps, data=p[0:rows, j * P:(j + 1) * P])
            p_t = nl.copy(pt_ps, dtype=v.dtype)               # [P, rows]
            nisa.nc_matmul(dst=o_ps, stationary=p_t, moving=v_sb[0:P, j, 0:D], accumulate=(j > 0))
        if kb_rem > 0:
            ptr_ps = nl.ndarray((kb_rem, rows), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_transpose(dst=ptr_ps, data=p[0:rows, kb_full * P:S])
            p_t_rem = nl.copy(ptr_ps, dtype=v.dtype)          # [kb_rem, rows]
            nisa.nc_matmul(dst=o_ps, stationary=p_t_rem, moving=v_rem, accumulate=(kb_full > 0))
        o = nl.ndarray((rows, D), dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=o, data=o_ps, op0=nl.multiply, operand0=inv_sum)
        nl.store(out[r0:r0 + rows, 0:D], value=o)
    return out
