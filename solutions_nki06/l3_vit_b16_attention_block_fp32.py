import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

N_HEAD = 12
EPS = 1e-6


@nki.jit
def vit_attention_block_kernel(x, norm1_weight, norm1_bias, qkv_weight, qkv_bias, proj_weight, proj_bias):
    """x + proj(MHA(LN(x))) for fp32 x [B, T, C], T <= 512 tokens (any count), C % 128 == 0, 12 heads.

    Token tiles (128 + 69 rows for T = 197) are LayerNorm-ed in fp32 (two-pass mean and
    variance over the 768 features) and PE-transposed into n^T [C, T].  q^T and k^T of each
    head are produced directly transposed ([64, T], qkv weight slices as stationary operand,
    bias per partition); v is token-major.  Per query tile and head the full [rows, T]
    score block is one matmul, softmax runs along the free axis, and P @ V runs over the
    ragged key blocks.  The heads' outputs [rows, C] are transposed back block by block
    for proj, which adds the bias and the residual.
    """
    B, T, C = x.shape
    HD = C // N_HEAD
    P = nl.tile_size.pmax
    n_c = C // P
    OB = C // 2                                  # output column chunk (<= 512)
    scale = 1.0 / float(np.sqrt(HD))
    out = nl.ndarray((B, T, C), dtype=x.dtype, buffer=nl.shared_hbm)
    tiles = [(t0, min(P, T - t0)) for t0 in range(0, T, P)]

    w_t = nl.ndarray((P, n_c, 3 * C), dtype=x.dtype, buffer=nl.sbuf)
    p_t = nl.ndarray((P, n_c, C), dtype=x.dtype, buffer=nl.sbuf)
    for kc in nl.affine_range(n_c):
        w_t[:, kc, :] = nl.load_transpose2d(qkv_weight[0:3 * C, kc * P:(kc + 1) * P])
        p_t[:, kc, :] = nl.load_transpose2d(proj_weight[0:C, kc * P:(kc + 1) * P])
    b_col = qkv_bias.reshape((3 * C, 1))
    b_q = nl.ndarray((HD, N_HEAD, 1), dtype=nl.float32, buffer=nl.sbuf)
    b_k = nl.ndarray((HD, N_HEAD, 1), dtype=nl.float32, buffer=nl.sbuf)
    for h in nl.affine_range(N_HEAD):
        b_q[:, h, :] = nl.load(b_col[h * HD:(h + 1) * HD, 0:1])
        b_k[:, h, :] = nl.load(b_col[C + h * HD:C + (h + 1) * HD, 0:1])
    b_v = nl.broadcast_to(nl.load(qkv_bias.reshape((1, 3 * C))[0:1, 2 * C:3 * C]), shape=(P, C))
    b_o = nl.broadcast_to(nl.load(proj_bias.reshape((1, C))), shape=(P, C))
    g_b = nl.broadcast_to(nl.load(norm1_weight.reshape((1, C))), shape=(P, C))
    be_b = nl.broadcast_to(nl.load(norm1_bias.reshape((1, C))), shape=(P, C))

    for b in nl.affine_range(B):
        n_t = nl.ndarray((P, n_c, T), dtype=x.dtype, buffer=nl.sbuf)
        for (t0, rows) in tiles:
            xs = nl.load(x[b, t0:t0 + rows, 0:C])
            mean = nl.multiply(nl.sum(xs, axis=[1]), 1.0 / C)
            xc = nl.ndarray(xs.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(xc, data=xs, op0=nl.subtract, operand0=mean)
            var = nl.multiply(nl.sum(nl.square(xc), axis=[1]), 1.0 / C)
            xn = nl.ndarray(xc.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(xn, data=xc, op0=nl.multiply, operand0=nl.rsqrt(nl.add(var, EPS)))
            xn = nl.add(nl.multiply(xn, g_b[0:rows, :]), be_b[0:rows, :])
            for kc in nl.affine_range(n_c):
                nc_transpose_out = nl.ndarray((xn[:, kc * P:(kc + 1) * P].shape[1], xn[:, kc * P:(kc + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out, xn[:, kc * P:(kc + 1) * P])
                n_t[:, kc, t0:t0 + rows] = nl.copy(nc_transpose_out)
        q_t = nl.ndarray((HD, N_HEAD, T), dtype=x.dtype, buffer=nl.sbuf)
        k_t = nl.ndarray((HD, N_HEAD, T), dtype=x.dtype, buffer=nl.sbuf)
        for h in nl.affine_range(N_HEAD):
            aq = nl.zeros((HD, T), nl.float32, buffer=nl.psum)
            ak = nl.zeros((HD, T), nl.float32, buffer=nl.psum)
            for kc in nl.affine_range(n_c):
                nisa.nc_matmul(aq, w_t[:, kc, h * HD:(h + 1) * HD], n_t[:, kc, :], accumulate=True)
                nisa.nc_matmul(ak, w_t[:, kc, C + h * HD:C + (h + 1) * HD], n_t[:, kc, :], accumulate=True)
            nisa.tensor_scalar(q_t[:, h, :], data=aq, op0=nl.add, operand0=b_q[:, h, :])
            nisa.tensor_scalar(k_t[:, h, :], data=ak, op0=nl.add, operand0=b_k[:, h, :])
        v_sb = nl.ndarray((P, len(tiles), C), dtype=x.dtype, buffer=nl.sbuf)
        for ti in nl.static_range(len(tiles)):
            t0, rows = tiles[ti]
            for c in nl.static_range(2):
                av = nl.zeros((rows, OB), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    nisa.nc_matmul(av, n_t[:, kc, t0:t0 + rows], w_t[:, kc, 2 * C + c * OB:2 * C + (c + 1) * OB], accumulate=True)
                v_sb[0:rows, ti, c * OB:(c + 1) * OB] = nl.add(av, b_v[0:rows, c * OB:(c + 1) * OB])

        for (t0, rows) in tiles:
            y_sb = nl.ndarray((rows, C), dtype=x.dtype, buffer=nl.sbuf)
            for h in nl.affine_range(N_HEAD):
                nc_matmul_out = nl.ndarray((q_t[:, h, t0:t0 + rows].shape[1], k_t[:, h, :].shape[1]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_matmul(nc_matmul_out, q_t[:, h, t0:t0 + rows], k_t[:, h, :])
                s = nl.multiply(nc_matmul_out, scale)   # [rows, T]
                mx = nl.ndarray((s.shape[0], 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_reduce(mx, nl.maximum, data=s, axis=(1,))
                pr = nl.ndarray(s.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(pr, op=nl.exp, data=s, bias=nl.multiply(mx, -1.0))
                inv = nl.reciprocal(nl.sum(pr, axis=[1]))
                y_ps = nl.zeros((rows, HD), nl.float32, buffer=nl.psum)
                for kj in nl.static_range(len(tiles)):
                    k0, krows = tiles[kj]
                    nc_transpose_out2 = nl.ndarray((pr[:, k0:k0 + krows].shape[1], pr[:, k0:k0 + krows].shape[0]), dtype=nl.float32, buffer=nl.psum)
                    nisa.nc_transpose(nc_transpose_out2, pr[:, k0:k0 + krows])
                    pt = nl.copy(nc_transpose_out2)                        # [krows, rows]
                    nisa.nc_matmul(y_ps, pt, v_sb[0:krows, kj, h * HD:(h + 1) * HD], accumulate=True)
                nisa.tensor_scalar(y_sb[:, h * HD:(h + 1) * HD], data=y_ps, op0=nl.multiply, operand0=inv)
            y_t = nl.ndarray((P, n_c, rows), dtype=x.dtype, buffer=nl.sbuf)
            for kc in nl.affine_range(n_c):
                nc_transpose_out3 = nl.ndarray((y_sb[:, kc * P:(kc + 1) * P].shape[1], y_sb[:, kc * P:(kc + 1) * P].shape[0]), dtype=nl.float32, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out3, y_sb[:, kc * P:(kc + 1) * P])
                y_t[:, kc, :] = nl.copy(nc_transpose_out3)
            res = nl.load(x[b, t0:t0 + rows, 0:C])
            for c in nl.static_range(2):
                o_ps = nl.zeros((rows, OB), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    nisa.nc_matmul(o_ps, y_t[:, kc, :], p_t[:, kc, c * OB:(c + 1) * OB], accumulate=True)
                o = nl.add(nl.add(o_ps, b_o[0:rows, c * OB:(c + 1) * OB]), res[:, c * OB:(c + 1) * OB])
                nl.store(out[b, t0:t0 + rows, c * OB:(c + 1) * OB], value=o)
    return out
