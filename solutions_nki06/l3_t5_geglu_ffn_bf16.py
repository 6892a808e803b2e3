import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

EPS = 1e-6


@nki.jit
def t5_geglu_ffn_kernel(x, norm_weight, wi_0_weight, wi_1_weight, wo_weight):
    """x + wo(gelu_tanh(wi_0(n)) * wi_1(n)), n = RMSNorm(x) * g, bf16 x [B, S, Dm], B*S <= 512, Dm % 512 == 0.

    Token tiles (the last one ragged) are RMS-normalised in fp32 on the free axis and
    PE-transposed into n^T [Dm, T], the moving operand for every intermediate block.
    d_ff (2816 = 22 blocks of 128) is streamed: the two gate blocks are produced transposed,
    combined in fp32 and rounded once to bf16, and the matching wo^T rows accumulate into
    PSUM tiles [rows, 512] that live across the stream; the residual is added in fp32.
    """
    B, S, Dm = x.shape
    T = B * S
    F = wi_0_weight.shape[0]
    P = nl.tile_size.pmax
    NB = 512
    n_d = Dm // P
    n_f = F // P
    n_o = Dm // NB
    xr = x.reshape((T, Dm))
    out = nl.ndarray((B, S, Dm), dtype=x.dtype, buffer=nl.shared_hbm)
    outr = out.reshape((T, Dm))
    tiles = [(t0, min(P, T - t0)) for t0 in range(0, T, P)]

    g_row = nl.load(norm_weight.reshape((1, Dm)), dtype=nl.float32)
    n_t = nl.ndarray((P, n_d, T), dtype=x.dtype, buffer=nl.sbuf)
    for (t0, rows) in tiles:
        xs = nl.load(xr[t0:t0 + rows, 0:Dm], dtype=nl.float32)
        ss = nl.sum(nl.square(xs), axis=[1])
        rstd = nl.rsqrt(nl.add(nl.multiply(ss, 1.0 / Dm), EPS))
        tensor_scalar_out = nl.ndarray(xs.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(tensor_scalar_out, data=xs, op0=nl.multiply, operand0=rstd)
        xn = nl.multiply(tensor_scalar_out,
                         nl.broadcast_to(g_row, shape=(rows, Dm)), dtype=x.dtype)
        for kd in nl.affine_range(n_d):
            nc_transpose_out = nl.ndarray((xn[:, kd * P:(kd + 1) * P].shape[1], xn[:, kd * P:(kd + 1) * P].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
            nisa.nc_transpose(nc_transpose_out, xn[:, kd * P:(kd + 1) * P])
            n_t[:, kd, t0:t0 + rows] = nl.copy(nc_transpose_out, dtype=x.dtype)

    accs = []
    for (t0, rows) in tiles:
        accs.append([nl.zeros((rows, NB), nl.float32, buffer=nl.psum) for _ in range(n_o)])
    for f in nl.affine_range(n_f):
        g_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
        u_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
        for kd in nl.affine_range(n_d):
            w0 = nl.load_transpose2d(wi_0_weight[f * P:(f + 1) * P, kd * P:(kd + 1) * P])
            w1 = nl.load_transpose2d(wi_1_weight[f * P:(f + 1) * P, kd * P:(kd + 1) * P])
            nisa.nc_matmul(g_ps, w0, n_t[:, kd, :], accumulate=True)
            nisa.nc_matmul(u_ps, w1, n_t[:, kd, :], accumulate=True)
        activation_out = nl.ndarray(g_ps.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(activation_out, op=nl.gelu_apprx_tanh, data=g_ps)
        a_t = nl.multiply(activation_out, u_ps,
                          dtype=x.dtype)
        wo = nl.load_transpose2d(wo_weight[0:Dm, f * P:(f + 1) * P])               # [128, Dm]
        for ti in nl.static_range(len(tiles)):
            t0, rows = tiles[ti]
            for c in nl.static_range(n_o):
                nisa.nc_matmul(accs[ti][c][...], a_t[:, t0:t0 + rows], wo[:, c * NB:(c + 1) * NB], accumulate=True)
    for ti in nl.static_range(len(tiles)):
        t0, rows = tiles[ti]
        for c in nl.static_range(n_o):
            res = nl.load(xr[t0:t0 + rows, c * NB:(c + 1) * NB], dtype=nl.float32)
            nl.store(outr[t0:t0 + rows, c * NB:(c + 1) * NB], value=nl.add(accs[ti][c], res, dtype=out.dtype))
    return out
