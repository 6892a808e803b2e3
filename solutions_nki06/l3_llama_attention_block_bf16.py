import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

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
    nc_transpose_out = nl.ndarray((rot.shape[1], rot.shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
    nisa.nc_transpose(nc_transpose_out, rot)
    return nl.copy(nc_transpose_out, dtype=dtype)


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

    for b in nl.affine_range(B):
        n_t1 = nl.ndarray((P, n_c, T), dtype=dt, buffer=nl.sbuf)
        for t in nl.affine_range(n_t):
            xs = nl.load(x[b, t * P:(t + 1) * P, 0:C], dtype=nl.float32)
            rstd = nl.rsqrt(nl.add(nl.multiply(nl.sum(nl.square(xs), axis=[1]), 1.0 / C), EPS))
            tensor_scalar_out = nl.ndarray(xs.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(tensor_scalar_out, data=xs, op0=nl.multiply, operand0=rstd)
            xn = nl.multiply(tensor_scalar_out, g_b, dtype=dt)
            for kc in nl.affine_range(n_c):
                nc_transpose_out2 = nl.ndarray((xn[:, kc * P:(kc + 1) * P].shape[1], xn[:, kc * P:(kc + 1) * P].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out2, xn[:, kc * P:(kc + 1) * P])
                n_t1[:, kc, t * P:(t + 1) * P] = nl.copy(nc_transpose_out2, dtype=dt)
        k_t = nl.ndarray((HD, N_KV, T), dtype=dt, buffer=nl.sbuf)
        v_sb = nl.ndarray((P, N_KV, n_t, HD), dtype=dt, buffer=nl.sbuf)
        for t in nl.affine_range(n_t):
            cos_t = nl.load(cos[t * P:(t + 1) * P, 0:HD], dtype=nl.float32)
            sin_t = nl.load(sin[t * P:(t + 1) * P, 0:HD], dtype=nl.float32)
            for g in nl.affine_range(N_KV):
                ak = nl.zeros((P, HD), nl.float32, buffer=nl.psum)
                av = nl.zeros((P, HD), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    nisa.nc_matmul(ak, n_t1[:, kc, t * P:(t + 1) * P], wk[:, kc, g * HD:(g + 1) * HD], accumulate=True)
                    nisa.nc_matmul(av, n_t1[:, kc, t * P:(t + 1) * P], wv[:, kc, g * HD:(g + 1) * HD], accumulate=True)
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
                    nisa.nc_matmul(aq, n_t1[:, kc, i * P:(i + 1) * P], wq[:, kc, h * HD:(h + 1) * HD], accumulate=True)
                q_t = _rope_t(aq, cos_t, sin_t, HD, dt)
                s_sb = nl.ndarray((P, ncols), dtype=nl.float32, buffer=nl.sbuf)
                for c0 in nl.static_range(0, ncols, NB):
                    w = min(NB, ncols - c0)
                    nc_matmul_out = nl.ndarray((q_t.shape[1], k_t[:, g, c0:c0 + w].shape[1]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_matmul(nc_matmul_out, q_t, k_t[:, g, c0:c0 + w])
                    s_sb[:, c0:c0 + w] = nl.multiply(nc_matmul_out, scale)
                s_m = nl.ndarray(s_sb[0:P, 0:ncols].shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.affine_select(s_m, [[-1, ncols]], 1, s_sb[0:P, 0:ncols], MASK_VALUE, cmp_op=nl.greater_equal, offset=i * P)
                mx = nl.ndarray((s_m.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_reduce(mx, nl.maximum, data=s_m, axis=(1,))
                pr = nl.ndarray(s_m.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(pr, op=nl.exp, data=s_m, bias=nl.multiply(mx, -1.0))
                inv = nl.reciprocal(nl.sum(pr, axis=[1]))
                y_ps = nl.zeros((P, HD), nl.float32, buffer=nl.psum)
                for j in nl.static_range(i + 1):
                    nc_transpose_out3 = nl.ndarray((pr[:, j * P:(j + 1) * P].shape[1], pr[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out3, pr[:, j * P:(j + 1) * P])
                    pt = nl.copy(nc_transpose_out3, dtype=dt)
                    nisa.nc_matmul(y_ps, pt, v_sb[:, g, j, :], accumulate=True)
                nisa.tensor_scalar(y_sb[:, h * HD:(h + 1) * HD], data=y_ps, op0=nl.multiply, operand0=inv)
            y_t = nl.ndarray((P, n_c, P), dtype=dt, buffer=nl.sbuf)
            for kc in nl.affine_range(n_c):
                nc_transpose_out4 = nl.ndarray((y_sb[:, kc * P:(kc + 1) * P].shape[1], y_sb[:, kc * P:(kc + 1) * P].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out4, y_sb[:, kc * P:(kc + 1) * P])
                y_t[:, kc, :] = nl.copy(nc_transpose_out4, dtype=dt)
            res = nl.load(x[b, i * P:(i + 1) * P, 0:C], dtype=nl.float32)
            for c in nl.static_range(C // NB):
                o_ps = nl.zeros((P, NB), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    nisa.nc_matmul(o_ps, y_t[:, kc, :], wo[:, kc, c * NB:(c + 1) * NB], accumulate=True)
                nl.store(out[b, i * P:(i + 1) * P, c * NB:(c + 1) * NB],
                         value=nl.add(o_ps, res[:, c * NB:(c + 1) * NB], dtype=dt))
    return out
