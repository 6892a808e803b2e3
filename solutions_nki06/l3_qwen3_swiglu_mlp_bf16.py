import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def swiglu_mlp_wide_kernel(x, gate_proj_weight, up_proj_weight, down_proj_weight):
    """down(silu(gate(x)) * up(x)) for bf16 x [B, S, Dm], B*S <= 512 tokens (any count), Dm, F % 512 == 0.

    All tokens are one moving operand: x^T [Dm, T] is built from transposing DMA loads
    (the last token block is ragged).  The intermediate axis is streamed 128 rows at a
    time: the gate and up blocks are produced transposed ([128, T], their weight blocks
    loaded transposed as the stationary operand), SiLU(gate) * up is formed in fp32 and
    rounded to bf16, and the block's down_proj^T rows [128, Dm] are accumulated into one
    PSUM tile per (token tile, 512 output columns), which live across the whole stream.
    """
    B, S, Dm = x.shape
    T = B * S
    F = gate_proj_weight.shape[0]
    P = nl.tile_size.pmax
    NB = 512
    n_d = Dm // P
    n_f = F // P
    n_o = Dm // NB
    xr = x.reshape((T, Dm))
    out = nl.ndarray((B, S, Dm), dtype=x.dtype, buffer=nl.shared_hbm)
    outr = out.reshape((T, Dm))
    tiles = [(t0, min(P, T - t0)) for t0 in range(0, T, P)]

    x_t = nl.ndarray((P, n_d, T), dtype=x.dtype, buffer=nl.sbuf)
    for (t0, rows) in tiles:
        for kd in nl.affine_range(n_d):
            x_t[:, kd, t0:t0 + rows] = nl.load_transpose2d(xr[t0:t0 + rows, kd * P:(kd + 1) * P])

    accs = []
    for (t0, rows) in tiles:
        accs.append([nl.zeros((rows, NB), nl.float32, buffer=nl.psum) for _ in range(n_o)])
    for f in nl.affine_range(n_f):
        g_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
        u_ps = nl.zeros((P, T), nl.float32, buffer=nl.psum)
        for kd in nl.affine_range(n_d):
            wg = nl.load_transpose2d(gate_proj_weight[f * P:(f + 1) * P, kd * P:(kd + 1) * P])
            wu = nl.load_transpose2d(up_proj_weight[f * P:(f + 1) * P, kd * P:(kd + 1) * P])
            nisa.nc_matmul(g_ps, wg, x_t[:, kd, :], accumulate=True)
            nisa.nc_matmul(u_ps, wu, x_t[:, kd, :], accumulate=True)
        activation_out = nl.ndarray(g_ps.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(activation_out, op=nl.silu, data=g_ps)
        a_t = nl.multiply(activation_out, u_ps, dtype=x.dtype)
        wd = nl.load_transpose2d(down_proj_weight[0:Dm, f * P:(f + 1) * P])        # [128, Dm]
        for ti in nl.static_range(len(tiles)):
            t0, rows = tiles[ti]
            for c in nl.static_range(n_o):
                nisa.nc_matmul(accs[ti][c][...], a_t[:, t0:t0 + rows], wd[:, c * NB:(c + 1) * NB], accumulate=True)
    for ti in nl.static_range(len(tiles)):
        t0, rows = tiles[ti]
        for c in nl.static_range(n_o):
            nl.store(outr[t0:t0 + rows, c * NB:(c + 1) * NB], value=nl.copy(accs[ti][c], dtype=out.dtype))
    return out
