import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

N_HEAD = 8
N_KV = 2
EPS = 1e-6
MASK_VALUE = -9984.0


def _rope_t(acc, cos_t, sin_t, HD, dtype):
    """Rotary embedding of a token-major [128, HD] projection (fp32 PSUM) with this tile's cos/sin
    rows, returned PE-transposed ([HD, 128], the matmul operand layout) in dtype.
    rotate_half is a swap of the two free-axis halves with a sign, so it needs no shuffle."""
    P = nl.tile_size.pmax
    half = HD // 2
    q = nl.copy(acc, dtype=nl.float32)
    r = nl.ndarray((P, HD), dtype=nl.float32, buffer=nl.sbuf)
    r[:, 0:half] = nl.multiply(nl.multiply(q[:, half:HD], sin_t[:, 0:half]), -1.0)
    r[:, half:HD] = nl.multiply(q[:, 0:half], sin_t[:, half:HD])
    rot = nl.add(nl.multiply(q, cos_t), r, dtype=dtype)
    return nl.copy(nisa.nc_transpose(rot), dtype=dtype)


@nki.jit
def llama_attention_block_kernel(x, cos, sin, input_layernorm_weight, q_proj_weight, k_proj_weight,
                                 v_proj_weight, o_proj_weight):
    """x + o_proj(causal GQA attention with RoPE on RMSNorm(x)), bf16 x [B, T, C]; T, C % 128 == 0, head dim 128.

    RMSNorm runs on token tiles (fp32 sum of squares) and the tiles are PE-transposed into
    n^T [C, T].  q and k are projected token-major ([128 tokens, 128], n^T block as
    stationary operand) so RoPE's half swap stays on the free axis, then transposed to the
    [hd, T] operand layout; k^T and v of both KV heads are built once.  Query tiles are
    unrolled (causal: tile i scores keys <= its last row, affine_select on the diagonal
    block); the 8 head outputs of a tile are transposed back for o_proj, which adds the
    residual in fp32.
    """
    B, T, C = x.shape
    HD = C // N_HEAD
    G = N_HEAD // N_KV
    P = nl.tile_size.pmax
    n_c = C // P
    n_t = T // P
    NB = 512
    dt = x.dtype
    scale = 1.0 / float(np.sqrt(HD))
    out = nl.ndarray((B, T, C), dtype=dt, buffer=nl.shared_hbm)

    wq = nl.ndarray((P, n_c, C), dtype=dt, buffer=nl.sbuf)
    wk = nl.ndarray((P, n_c, N_KV * HD), dtype=dt, buffer=nl.sbuf)
    wv = nl.ndarray((P, n_c, N_KV * HD), dtype=dt, buffer=nl.sbuf)
    wo = nl.ndarray((P, n_c, C), dtype=dt, buffer=nl.sbuf)
    for kc in nl.affine_range(n_c):
        wq[:, kc, :] = nl.load_transpose2d(q_proj_weight[0:C, kc * P:(kc + 1) * P])
        wk[:, kc, :] = nl.load_transpose2d(k_proj_weight[0:N_KV * HD, kc * P:(kc + 1) * P])
        wv[:, kc, :] = nl.load_transpose2d(v_proj_weight[0:N_KV * HD, kc * P:(kc + 1) * P])
        wo[:, kc, :] = nl.load_transpose2d(o_proj_weight[0:C, kc * P:(kc + 1) * P])
    g_b = nl.broadcast_to(nl.load(input_layernorm_weight.reshape((1, C)), dtype=nl.float32), shape=(P, C))

    i_p = nl.arange(P)[:, None]
    for b in nl.affine_range(B):
        n_t1 = nl.ndarray((P, n_c, T), dtype=dt, buffer=nl.sbuf)
        for t in nl.affine_range(n_t):
            xs = nl.load(x[b, t * P:(t + 1) * P, 0:C], dtype=nl.float32)
            rstd = nl.rsqrt(nl.add(nl.multiply(nl.sum(nl.square(xs), axis=[1]), 1.0 / C), EPS))
            xn = nl.multiply(nisa.tensor_scalar(data=xs, op0=nl.multiply, operand0=rstd), g_b, dtype=dt)
            for kc in nl.affine_range(n_c):
                n_t1[:, kc, t * P:(t + 1) * P] = nl.copy(nisa.nc_transpose(xn[:, kc * P:(kc + 1) * P]), dtype=dt)
        k_t = nl.ndarray((HD, N_KV, T), dtype=dt, buffer=nl.sbuf)
        v_sb = nl.ndarray((P, N_KV, n_t, HD), dtype=dt, buffer=nl.sbuf)
        for t in nl.affine_range(n_t):
            cos_t = nl.load(cos[t * P:(t + 1) * P, 0:HD], dtype=nl.float32)
            sin_t = nl.load(sin[t * P:(t + 1) * P, 0:HD], dtype=nl.float32)
            for g in nl.affine_range(N_KV):
                ak = nl.zeros((P, HD), nl.float32, buffer=nl.psum)
                av = nl.zeros((P, HD), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    ak += nisa.nc_matmul(n_t1[:, kc, t * P:(t + 1) * P], wk[:, kc, g * HD:(g + 1) * HD])
                    av += nisa.nc_matmul(n_t1[:, kc, t * P:(t + 1) * P], wv[:, kc, g * HD:(g + 1) * HD])
                k_t[:, g, t * P:(t + 1) * P] = _rope_t(ak, cos_t, sin_t, HD, dt)
                v_sb[:, g, t, :] = nl.copy(av, dtype=dt)
        for i in nl.static_range(n_t):
            ncols = (i + 1) * P
            cos_t = nl.load(cos[i * P:(i + 1) * P, 0:HD], dtype=nl.float32)
            sin_t = nl.load(sin[i * P:(i + 1) * P, 0:HD], dtype=nl.float32)
            y_sb = nl.ndarray((P, C), dtype=dt, buffer=nl.sbuf)
            for h in nl.affine_range(N_HEAD):
                g = h // G
                aq = nl.zeros((P, HD), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    aq += nisa.nc_matmul(n_t1[:, kc, i * P:(i + 1) * P], wq[:, kc, h * HD:(h + 1) * HD])
                q_t = _rope_t(aq, cos_t, sin_t, HD, dt)
                s_sb = nl.ndarray((P, ncols), dtype=nl.float32, buffer=nl.sbuf)
                for c0 in nl.static_range(0, ncols, NB):
                    w = min(NB, ncols - c0)
                    s_sb[:, c0:c0 + w] = nl.multiply(nisa.nc_matmul(q_t, k_t[:, g, c0:c0 + w]), scale)
                i_s = nl.arange(ncols)[None, :]
                s_m = nisa.affine_select(pred=(i * P + i_p - i_s >= 0), on_true_tile=s_sb[i_p, i_s],
                                         on_false_value=MASK_VALUE)
                mx = nisa.tensor_reduce(np.max, data=s_m, axis=(1,), dtype=nl.float32)
                pr = nisa.activation(op=nl.exp, data=s_m, bias=nl.multiply(mx, -1.0), dtype=nl.float32)
                inv = nl.reciprocal(nl.sum(pr, axis=[1]))
                y_ps = nl.zeros((P, HD), nl.float32, buffer=nl.psum)
                for j in nl.static_range(i + 1):
                    pt = nl.copy(nisa.nc_transpose(pr[:, j * P:(j + 1) * P]), dtype=dt)
                    y_ps += nisa.nc_matmul(pt, v_sb[:, g, j, :])
                y_sb[:, h * HD:(h + 1) * HD] = nisa.tensor_scalar(data=y_ps, op0=nl.multiply, operand0=inv, dtype=dt)
            y_t = nl.ndarray((P, n_c, P), dtype=dt, buffer=nl.sbuf)
            for kc in nl.affine_range(n_c):
                y_t[:, kc, :] = nl.copy(nisa.nc_transpose(y_sb[:, kc * P:(kc + 1) * P]), dtype=dt)
            res = nl.load(x[b, i * P:(i + 1) * P, 0:C], dtype=nl.float32)
            for c in nl.static_range(C // NB):
                o_ps = nl.zeros((P, NB), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    o_ps += nisa.nc_matmul(y_t[:, kc, :], wo[:, kc, c * NB:(c + 1) * NB])
                nl.store(out[b, i * P:(i + 1) * P, c * NB:(c + 1) * NB],
                         value=nl.add(o_ps, res[:, c * NB:(c + 1) * NB], dtype=dt))
    return out
