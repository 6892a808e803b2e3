import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

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

    i_p = nl.arange(P)[:, None]
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
                        s_sb[:, a0:a0 + w] = nl.multiply(nisa.nc_matmul(q_t, k_t[:, c0 + a0:c0 + a0 + w]), scale)
                    i_s = nl.arange(ncols)[None, :]
                    s_u = nisa.affine_select(pred=(i * P + i_p - c0 - i_s >= 0), on_true_tile=s_sb[i_p, i_s],
                                             on_false_value=MASK_VALUE)
                    s_m = nisa.affine_select(pred=(c0 + i_s - (i * P + i_p) + WINDOW > 0),
                                             on_true_tile=s_u[i_p, i_s], on_false_value=MASK_VALUE)
                    mx = nisa.tensor_reduce(np.max, data=s_m, axis=(1,), dtype=nl.float32)
                    p = nisa.activation(op=nl.exp, data=s_m, bias=nl.multiply(mx, -1.0), dtype=nl.float32)
                    inv = nl.reciprocal(nl.sum(p, axis=[1]))
                    o_ps = nl.zeros((P, D), nl.float32, buffer=nl.psum)
                    for jj in nl.static_range(i + 1 - j0):
                        p_t = nl.copy(nisa.nc_transpose(p[:, jj * P:(jj + 1) * P]), dtype=v.dtype)
                        o_ps += nisa.nc_matmul(p_t, v_sb[:, j0 + jj, :])
                    o = nisa.tensor_scalar(data=o_ps, op0=nl.multiply, operand0=inv, dtype=out.dtype)
                    nl.store(out[b, h, i * P:(i + 1) * P, 0:D], value=o)
    return out
