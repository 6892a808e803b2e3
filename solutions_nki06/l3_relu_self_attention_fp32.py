import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

N_HEAD = 4


@nki.jit
def relu_self_attention_kernel(x, c_attn_weight, c_attn_bias, c_proj_weight, c_proj_bias):
    """c_proj(relu(causal(q k^T / sqrt(hs))) @ v) for fp32 x [B, T, C]; C % 128 == 0, T % 512 == 0.

    x^T [C, T] is loaded with transposing DMAs.  q^T and k^T of every head are produced
    directly in the transposed layout ([hs, T], weights as the stationary operand, bias
    per partition), v in token-major layout [128, T/128, C].  Per 128-query tile (unrolled,
    so only keys at or below the diagonal are computed) and head: scores, scale, causal
    mask to 0 with affine_select, ReLU, then att @ v from PE-transposed att blocks.  The
    head outputs form y [128, C], which is transposed for c_proj (+ bias).
    """
    B, T, C = x.shape
    HS = C // N_HEAD
    P = nl.tile_size.pmax
    NB = 512
    n_c = C // P
    n_t = T // P
    scale = 1.0 / float(np.sqrt(HS))
    out = nl.ndarray((B, T, C), dtype=x.dtype, buffer=nl.shared_hbm)

    w_t = nl.ndarray((P, n_c, 3 * C), dtype=c_attn_weight.dtype, buffer=nl.sbuf)
    p_t = nl.ndarray((P, n_c, C), dtype=c_proj_weight.dtype, buffer=nl.sbuf)
    for kc in nl.affine_range(n_c):
        w_t[:, kc, :] = nl.load_transpose2d(c_attn_weight[0:3 * C, kc * P:(kc + 1) * P])
        p_t[:, kc, :] = nl.load_transpose2d(c_proj_weight[0:C, kc * P:(kc + 1) * P])
    b_col = c_attn_bias.reshape((3 * C, 1))
    b_q = nl.ndarray((HS, N_HEAD, 1), dtype=nl.float32, buffer=nl.sbuf)
    b_k = nl.ndarray((HS, N_HEAD, 1), dtype=nl.float32, buffer=nl.sbuf)
    for h in nl.affine_range(N_HEAD):
        b_q[:, h, :] = nl.load(b_col[h * HS:(h + 1) * HS, 0:1], dtype=nl.float32)
        b_k[:, h, :] = nl.load(b_col[C + h * HS:C + (h + 1) * HS, 0:1], dtype=nl.float32)
    b_v = nl.broadcast_to(nl.load(c_attn_bias.reshape((1, 3 * C))[0:1, 2 * C:3 * C], dtype=nl.float32),
                          shape=(P, C))
    b_o = nl.broadcast_to(nl.load(c_proj_bias.reshape((1, C)), dtype=nl.float32), shape=(P, C))

    for b in nl.affine_range(B):
        x_t = nl.ndarray((P, n_c, T), dtype=x.dtype, buffer=nl.sbuf)
        for kc in nl.affine_range(n_c):
            x_t[:, kc, :] = nl.load_transpose2d(x[b, 0:T, kc * P:(kc + 1) * P])
        q_t = nl.ndarray((HS, N_HEAD, T), dtype=x.dtype, buffer=nl.sbuf)
        k_t = nl.ndarray((HS, N_HEAD, T), dtype=x.dtype, buffer=nl.sbuf)
        for h in nl.affine_range(N_HEAD):
            for c in nl.affine_range(T // NB):
                aq = nl.zeros((HS, NB), nl.float32, buffer=nl.psum)
                ak = nl.zeros((HS, NB), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    nisa.nc_matmul(aq, w_t[:, kc, h * HS:(h + 1) * HS], x_t[:, kc, c * NB:(c + 1) * NB], accumulate=True)
                    nisa.nc_matmul(ak, w_t[:, kc, C + h * HS:C + (h + 1) * HS], x_t[:, kc, c * NB:(c + 1) * NB], accumulate=True)
                nisa.tensor_scalar(q_t[:, h, c * NB:(c + 1) * NB], data=aq, op0=nl.add, operand0=b_q[:, h, :])
                nisa.tensor_scalar(k_t[:, h, c * NB:(c + 1) * NB], data=ak, op0=nl.add, operand0=b_k[:, h, :])
        v_sb = nl.ndarray((P, n_t, C), dtype=x.dtype, buffer=nl.sbuf)
        for j in nl.affine_range(n_t):
            av = nl.zeros((P, C), nl.float32, buffer=nl.psum)
            for kc in nl.affine_range(n_c):
                nisa.nc_matmul(av, x_t[:, kc, j * P:(j + 1) * P], w_t[:, kc, 2 * C:3 * C], accumulate=True)
            v_sb[:, j, :] = nl.add(av, b_v, dtype=x.dtype)

        for i in nl.static_range(n_t):
            ncols = (i + 1) * P
            y_sb = nl.ndarray((P, C), dtype=x.dtype, buffer=nl.sbuf)
            for h in nl.affine_range(N_HEAD):
                s_sb = nl.ndarray((P, ncols), dtype=nl.float32, buffer=nl.sbuf)
                for c0 in nl.static_range(0, ncols, NB):
                    w = min(NB, ncols - c0)
                    nc_matmul_out = nl.ndarray((q_t[:, h, i * P:(i + 1) * P].shape[1], k_t[:, h, c0:c0 + w].shape[1]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_matmul(nc_matmul_out, q_t[:, h, i * P:(i + 1) * P], k_t[:, h, c0:c0 + w])
                    nisa.activation(s_sb[:, c0:c0 + w], op=nl.relu, data=nc_matmul_out, scale=scale)
                att = nl.ndarray(s_sb[0:P, 0:ncols].shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.affine_select(att, [[-1, ncols]], 1, s_sb[0:P, 0:ncols], 0.0, cmp_op=nl.greater_equal, offset=i * P)
                y_ps = nl.zeros((P, HS), nl.float32, buffer=nl.psum)
                for j in nl.static_range(i + 1):
                    nc_transpose_out = nl.ndarray((att[:, j * P:(j + 1) * P].shape[1], att[:, j * P:(j + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out, att[:, j * P:(j + 1) * P])
                    a_t = nl.copy(nc_transpose_out, dtype=x.dtype)
                    nisa.nc_matmul(y_ps, a_t, v_sb[:, j, h * HS:(h + 1) * HS], accumulate=True)
                y_sb[:, h * HS:(h + 1) * HS] = nl.copy(y_ps, dtype=x.dtype)
            o_ps = nl.zeros((P, C), nl.float32, buffer=nl.psum)
            for kc in nl.affine_range(n_c):
                nc_transpose_out2 = nl.ndarray((y_sb[:, kc * P:(kc + 1) * P].shape[1], y_sb[:, kc * P:(kc + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out2, y_sb[:, kc * P:(kc + 1) * P])
                y_t = nl.copy(nc_transpose_out2, dtype=x.dtype)
                nisa.nc_matmul(o_ps, y_t, p_t[:, kc, :], accumulate=True)
            nl.store(out[b, i * P:(i + 1) * P, 0:C], value=nl.add(o_ps, b_o, dtype=out.dtype))
    return out
