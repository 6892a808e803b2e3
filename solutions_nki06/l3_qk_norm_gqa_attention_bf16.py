import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

EPS = 1e-6
MASK_VALUE = -9984.0


def _rms_normed_t(src, gain_b, D, dtype):
    """RMS-normalise the 128 rows of src [128, D] (fp32 statistics), scale by the gain and
    return the PE-transposed tile [D, 128] in the input dtype (the matmul operand layout)."""
    x = nl.load(src, dtype=nl.float32)
    ss = nl.sum(nl.square(x), axis=[1])
    rstd = nl.rsqrt(nl.add(nl.multiply(ss, 1.0 / D), EPS))
    tensor_scalar_out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar(tensor_scalar_out, data=x, op0=nl.multiply, operand0=rstd)
    xn = nl.multiply(tensor_scalar_out, gain_b, dtype=dtype)
    nc_transpose_out = nl.ndarray((xn.shape[1], xn.shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
    nisa.nc_transpose(nc_transpose_out, xn)
    return nl.copy(nc_transpose_out, dtype=dtype)


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
                        nc_matmul_out = nl.ndarray((q_t.shape[1], k_t[:, c0:c0 + w].shape[1]), dtype=nl.float32, buffer=nl.psum)
                        nisa.nc_matmul(nc_matmul_out, q_t, k_t[:, c0:c0 + w])
                        s_sb[:, c0:c0 + w] = nl.multiply(nc_matmul_out, scale)
                    s_m = nl.ndarray(s_sb[0:P, 0:ncols].shape, dtype=nl.float32, buffer=nl.sbuf)
                    nisa.affine_select(s_m, [[-1, ncols]], 1, s_sb[0:P, 0:ncols], MASK_VALUE, cmp_op=nl.greater_equal, offset=i * P)
                    mx = nl.ndarray((s_m.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)
                    nisa.tensor_reduce(mx, nl.maximum, data=s_m, axis=(1,))
                    p = nl.ndarray(s_m.shape, dtype=nl.float32, buffer=nl.sbuf)
                    nisa.activation(p, op=nl.exp, data=s_m, bias=nl.multiply(mx, -1.0))
                    inv = nl.reciprocal(nl.sum(p, axis=[1]))
                    o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                    for j in nl.static_range(i + 1):
                        nc_transpose_out2 = nl.ndarray((p[:, j * P:(j + 1) * P].shape[1], p[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                        nisa.nc_transpose(nc_transpose_out2, p[:, j * P:(j + 1) * P])
                        p_t = nl.copy(nc_transpose_out2, dtype=v.dtype)
                        nisa.nc_matmul(o_ps, p_t, v_sb[:, j, :], accumulate=True)
                    o = nl.ndarray(o_ps.shape, dtype=out.dtype, buffer=nl.sbuf)
                    nisa.tensor_scalar(o, data=o_ps, op0=nl.multiply, operand0=inv)
                    nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
