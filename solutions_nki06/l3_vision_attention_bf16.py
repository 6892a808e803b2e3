# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

N_HEAD = 4
EPS = 1e-5


def _transpose(src, rows, cols, dtype):
    """PE transpose of an on-chip [rows, cols] tile through PSUM, copied to SBUF as dtype."""
    t_ps = nl.ndarray((cols, rows), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(dst=t_ps, data=src)
    return nl.copy(t_ps, dtype=dtype)


@nki.jit
def vision_attention_kernel(x, attn_in_proj_weight, attn_in_proj_bias, attn_out_proj_weight,
                            attn_out_proj_bias, norm_weight, norm_bias):
    """LayerNorm(MHA(t, t, t) + t) over the H*W pixel tokens t of bf16 x [B, C, H, W], C = 128.

    The channel-major image [C, HW] already is the transposed token matrix, so q^T and k^T
    of each head ([hd, HW]) come from matmuls with the weight slice as stationary operand
    and a per-partition bias; v is token-major [128, HW/128, C]. Per 128-token tile: per
    head full softmax over the 1024 keys in fp32 and P @ V in PSUM; the heads' outputs are
    transposed once for out_proj; the residual token tile is a PE transpose of the image
    tile; LayerNorm (bn_stats/bn_aggr) runs over channels on the free axis, and the result
    is transposed back to channel-major for the store.
    """
    B, C, H, W = x.shape
    T = H * W
    HD = C // N_HEAD
    P = nl.tile_size.pmax
    NB = 512
    n_t = T // P
    scale = 1.0 / float(np.sqrt(HD))
    out = nl.ndarray((B, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((B, C, T))
    outr = out.reshape((B, C, T))

    w_in_t = nl.load_transpose2d(attn_in_proj_weight[0:3 * C, 0:C])               # [C, 3C]
    w_o_t = nl.load_transpose2d(attn_out_proj_weight[0:C, 0:C])                   # [C, C]
    b_col = attn_in_proj_bias.reshape((3 * C, 1))
    b_q = nl.ndarray((HD, N_HEAD, 1), dtype=nl.float32, buffer=nl.sbuf)
    b_k = nl.ndarray((HD, N_HEAD, 1), dtype=nl.float32, buffer=nl.sbuf)
    for h in nl.affine_range(N_HEAD):
        b_q[0:HD, h, 0:1] = nl.load(b_col[h * HD:(h + 1) * HD, 0:1], dtype=nl.float32)
        b_k[0:HD, h, 0:1] = nl.load(b_col[C + h * HD:C + (h + 1) * HD, 0:1], dtype=nl.float32)
    b_v = nl.broadcast_to(nl.load(attn_in_proj_bias.reshape((1, 3 * C))[0:1, 2 * C:3 * C], dtype=nl.float32),
                          shape=(P, C))
    b_o = nl.broadcast_to(nl.load(attn_out_proj_bias.reshape((1, C))[0:1, 0:C], dtype=nl.float32), shape=(P, C))
    g_b = nl.broadcast_to(nl.load(norm_weight.reshape((1, C))[0:1, 0:C], dtype=nl.float32), shape=(P, C))
    be_b = nl.broadcast_to(nl.load(norm_bias.reshape((1, C))[0:1, 0:C], dtype=nl.float32), shape=(P, C))

    for b in nl.affine_range(B):
        x_t = nl.load(xr[b])                                                      # [C, T]
        q_t = nl.ndarray((HD, N_HEAD, T), dtype=x.dtype, buffer=nl.sbuf)
        k_t = nl.ndarray((HD, N_HEAD, T), dtype=x.dtype, buffer=nl.sbuf)
        for h in nl.affine_range(N_HEAD):
            for c in nl.affine_range(T // NB):
                aq = nl.ndarray((HD, NB), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(dst=aq, stationary=w_in_t[0:C, h * HD:(h + 1) * HD], moving=x_t[0:C, c * NB:(c + 1) * NB])
                ak = nl.ndarray((HD, NB), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(dst=ak, stationary=w_in_t[0:C, C + h * HD:C + (h + 1) * HD],
                               moving=x_t[0:C, c * NB:(c + 1) * NB])
                nisa.tensor_scalar(dst=q_t[0:HD, h, c * NB:(c + 1) * NB], data=aq, op0=nl.add, operand0=b_q[0:HD, h, 0:1])
                nisa.tensor_scalar(dst=k_t[0:HD, h, c * NB:(c + 1) * NB], data=ak, op0=nl.add, operand0=b_k[0:HD, h, 0:1])
        v_sb = nl.ndarray((P, n_t, C), dtype=x.dtype, buffer=nl.sbuf)
        for j in nl.affine_range(n_t):
            av = nl.ndarray((P, C), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(dst=av, stationary=x_t[0:C, j * P:(j + 1) * P], moving=w_in_t[0:C, 2 * C:3 * C])
            v_sb[0:P, j, 0:C] = nl.add(av, b_v, dtype=x.dtype)

        for i in nl.affine_range(n_t):
            y_sb = nl.ndarray((P, C), dtype=x.dtype, buffer=nl.sbuf)
            for h in nl.affine_range(N_HEAD):
                s_sb = nl.ndarray((P, T), dtype=nl.float32, buffer=nl.sbuf)
                for c in nl.affine_range(T // NB):
                    s_ps = nl.ndarray((P, NB), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_matmul(dst=s_ps, stationary=q_t[0:HD, h, i * P:(i + 1) * P],
                                   moving=k_t[0:HD, h, c * NB:(c + 1) * NB])
                    s_sb[0:P, c * NB:(c + 1) * NB] = nl.multiply(s_ps, scale)
                mx = nl.ndarray((P, 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_reduce(dst=mx, op=nl.maximum, data=s_sb, axis=1)
                p = nl.ndarray((P, T), dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(dst=p, op=nl.exp, data=s_sb, bias=nl.multiply(mx, -1.0))
                inv = nl.reciprocal(nl.sum(p, axis=1, keepdims=True))
                y_ps = nl.ndarray((P, HD), dtype=nl.float32, buffer=nl.psum)
                for j in nl.affine_range(n_t):
                    p_t = _transpose(p[0:P, j * P:(j + 1) * P], P, P, x.dtype)
                    nisa.nc_matmul(dst=y_ps, stationary=p_t, moving=v_sb[0:P, j, h * HD:(h + 1) * HD],
                                   accumulate=(j > 0))
                nisa.tensor_scalar(dst=y_sb[0:P, h * HD:(h + 1) * HD], data=y_ps, op0=nl.multiply, operand0=inv)
            y_t = _transpose(y_sb, P, C, x.dtype)                                 # [C, 128]
            o_ps = nl.ndarray((P, C), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(dst=o_ps, stationary=y_t, moving=w_o_t)                # [128, C]
            x_tok = _transpose(x_t[0:C, i * P:(i + 1) * P], C, P, nl.float32)
            r = nl.add(nl.add(o_ps, b_o), x_tok)
            stats = nl.ndarray((P, 6), dtype=nl.float32, buffer=nl.sbuf)
            nisa.bn_stats(dst=stats, data=r)
            mv = nl.ndarray((P, 2), dtype=nl.float32, buffer=nl.sbuf)
            nisa.bn_aggr(dst=mv, data=stats)
            rstd = nl.rsqrt(nl.add(mv[0:P, 1:2], EPS))
            rn = nl.ndarray((P, C), dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(dst=rn, data=r, op0=nl.subtract, operand0=mv[0:P, 0:1], op1=nl.multiply, operand1=rstd)
            yn = nl.add(nl.multiply(rn, g_b), be_b)
            nl.store(outr[b, 0:C, i * P:(i + 1) * P], value=_transpose(yn, P, C, out.dtype))
    return out
