import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

NB = 512


@nki.jit
def lm_head_cross_entropy_kernel(h, target, lm_head_weight):
    """Per-token (lse - logit[target], lse) of logits = h @ W^T, bf16 h [T, D], W [V, D]; D % 128 == 0.

    The [T, V] logits never reach HBM.  The vocabulary is walked in 512-column chunks (the
    last one ragged: 8000 = 15 * 512 + 320); each chunk's W^T [D, 512] is assembled from
    transposing DMA loads once and used by every token tile.  Each token tile keeps an
    online (max, sum of exp) pair and the picked target logit (iota one-hot) across the
    chunks, all in fp32; the two results are rounded once at the store.
    """
    T, D = h.shape
    V = lm_head_weight.shape[0]
    P = nl.tile_size.pmax
    n_d = D // P
    n_t = T // P
    loss = nl.ndarray((T,), dtype=h.dtype, buffer=nl.shared_hbm)
    lse_out = nl.ndarray((T,), dtype=h.dtype, buffer=nl.shared_hbm)
    loss_col = loss.reshape((T, 1))
    lse_col = lse_out.reshape((T, 1))
    tgt_col = target.reshape((T, 1))

    h_t = nl.ndarray((P, n_d, T), dtype=h.dtype, buffer=nl.sbuf)
    tg = []
    for t in nl.static_range(n_t):
        for kd in nl.affine_range(n_d):
            h_t[:, kd, t * P:(t + 1) * P] = nl.load_transpose2d(h[t * P:(t + 1) * P, kd * P:(kd + 1) * P])
        tg.append(nl.load(tgt_col[t * P:(t + 1) * P, 0:1], dtype=nl.float32))
    iota_out = nl.ndarray((1, 512), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(iota_out, [[1, NB]], offset=0, channel_multiplier=0)
    cls = nl.broadcast_to(iota_out, shape=(P, NB))
    m = [None] * n_t
    s = [None] * n_t
    pk = [None] * n_t
    for c in nl.static_range((V + NB - 1) // NB):
        v0 = c * NB
        w = min(NB, V - v0)
        w_t = nl.ndarray((P, n_d, w), dtype=lm_head_weight.dtype, buffer=nl.sbuf)
        for kd in nl.affine_range(n_d):
            w_t[:, kd, :] = nl.load_transpose2d(lm_head_weight[v0:v0 + w, kd * P:(kd + 1) * P])
        for t in nl.static_range(n_t):
            acc = nl.zeros((P, w), nl.float32, buffer=nl.psum)
            for kd in nl.affine_range(n_d):
                nisa.nc_matmul(acc, h_t[:, kd, t * P:(t + 1) * P], w_t[:, kd, :], accumulate=True)
            cm = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_reduce(cm, nl.maximum, data=acc, axis=(1,))
            onehot = nl.ndarray(cls[:, 0:w].shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(onehot, data=cls[:, 0:w], op0=nl.equal, operand0=nl.add(tg[t], -float(v0)))
            picked = nl.sum(nl.multiply(onehot, acc), axis=[1])
            if c == 0:
                m[t] = cm
                activation_out = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(activation_out, op=nl.exp, data=acc, bias=nl.multiply(cm, -1.0))
                s[t] = nl.sum(activation_out, axis=[1])
                pk[t] = picked
            else:
                m_new = nl.maximum(m[t], cm)
                e = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(e, op=nl.exp, data=acc, bias=nl.multiply(m_new, -1.0))
                s[t] = nl.add(nl.multiply(s[t], nl.exp(nl.subtract(m[t], m_new))), nl.sum(e, axis=[1]))
                m[t] = m_new
                pk[t] = nl.add(pk[t], picked)
    for t in nl.static_range(n_t):
        lse = nl.add(m[t], nl.log(s[t]))
        nl.store(lse_col[t * P:(t + 1) * P, 0:1], value=nl.copy(lse, dtype=h.dtype))
        nl.store(loss_col[t * P:(t + 1) * P, 0:1], value=nl.subtract(lse, pk[t], dtype=h.dtype))
    return loss, lse_out
