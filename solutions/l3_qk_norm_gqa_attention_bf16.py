import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

EPS = 1e-6
MASK_VALUE = -9984.0


def _rms_normed_t(src, gain_b, D, dtype):
    """RMS-normalise the 128 rows of src [128, D] (fp32 statistics), scale by the gain and
    return the PE-transposed tile [D, 128] in the input dtype (the matmul operand layout)."""
    x = nl.load(src, dtype=nl.float32)
    ss = nl.sum(nl.square(x), axis=[1])
    rstd = nl.rsqrt(nl.add(nl.multiply(ss, 1.0 / D), EPS))
    xn = nl.multiply(nisa.tensor_scalar(data=x, op0=nl.multiply, operand0=rstd), gain_b, dtype=dtype)
    return nl.copy(nisa.nc_transpose(xn), dtype=dtype)


@nki.jit
def qk_norm_gqa_attention_kernel(q, k, v, q_norm_weight, k_norm_weight):
    """Causal GQA on RMS-normalised q and k: bf16 q [B, Hq, S, D], k/v [B, Hkv, S, D], D = 128.

    Per KV head the keys are normalised tile by tile (fp32 sum of squares along the free
    axis, rsqrt, gain) and PE-transposed into k^T [D, S], which serves the G query heads of
    the group.  Each query tile is normalised the same way on load; query tiles are
    unrolled so tile i computes only the keys at or below the diagonal (affine_select on
    the diagonal block); softmax in fp32; P @ V accumulates in PSUM.
    """
    B, Hq, S, D = q.shape
    Hkv = k.shape[1]
    G = Hq // Hkv
    P = nl.tile_size.pmax
    NB = 512
    n_q = S // P
    scale = 1.0 / float(np.sqrt(D))
    out = nl.ndarray((B, Hq, S, D), dtype=q.dtype, buffer=nl.shared_hbm)

    gq = nl.broadcast_to(nl.load(q_norm_weight.reshape((1, D)), dtype=nl.float32), shape=(P, D))
    gk = nl.broadcast_to(nl.load(k_norm_weight.reshape((1, D)), dtype=nl.float32), shape=(P, D))
    i_p = nl.arange(P)[:, None]
    for b in nl.affine_range(B):
        for g in nl.affine_range(Hkv):
            k_t = nl.ndarray((D, S), dtype=k.dtype, buffer=nl.sbuf)
            v_sb = nl.ndarray((P, n_q, D), dtype=v.dtype, buffer=nl.sbuf)
            for j in nl.affine_range(n_q):
                k_t[:, j * P:(j + 1) * P] = _rms_normed_t(k[b, g, j * P:(j + 1) * P, 0:D], gk, D, k.dtype)
                v_sb[:, j, :] = nl.load(v[b, g, j * P:(j + 1) * P, 0:D])
            for r in nl.affine_range(G):
                h = g * G + r
                for i in nl.static_range(n_q):
                    ncols = (i + 1) * P
                    q_t = _rms_normed_t(q[b, h, i * P:(i + 1) * P, 0:D], gq, D, q.dtype)
                    s_sb = nl.ndarray((P, ncols), dtype=nl.float32, buffer=nl.sbuf)
                    for c0 in nl.static_range(0, ncols, NB):
                        w = min(NB, ncols - c0)
                        s_sb[:, c0:c0 + w] = nl.multiply(nisa.nc_matmul(q_t, k_t[:, c0:c0 + w]), scale)
                    i_s = nl.arange(ncols)[None, :]
                    s_m = nisa.affine_select(pred=(i * P + i_p - i_s >= 0), on_true_tile=s_sb[i_p, i_s],
                                             on_false_value=MASK_VALUE)
                    mx = nisa.tensor_reduce(np.max, data=s_m, axis=(1,), dtype=nl.float32)
                    p = nisa.activation(op=nl.exp, data=s_m, bias=nl.multiply(mx, -1.0), dtype=nl.float32)
                    inv = nl.reciprocal(nl.sum(p, axis=[1]))
                    o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                    for j in nl.static_range(i + 1):
                        p_t = nl.copy(nisa.nc_transpose(p[:, j * P:(j + 1) * P]), dtype=v.dtype)
                        o_ps += nisa.nc_matmul(p_t, v_sb[:, j, :])
                    o = nisa.tensor_scalar(data=o_ps, op0=nl.multiply, operand0=inv, dtype=out.dtype)
                    nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
