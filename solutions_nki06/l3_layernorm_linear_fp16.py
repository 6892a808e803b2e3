# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa

EPS = 1e-5


@nki.jit
def layernorm_linear_kernel(x, ln_w, ln_b, fc_w, fc_b):
    """fc(LN(x)) for fp16 x [M, Din] with M not a multiple of 128; fc_w [Dout, Din], fc_b [Dout].

    Row tile m covers rows m * P .. m * P + rows, rows = min(P, M - m * P); 0.6 has no
    masks, so every tile of the last, short row tile (the load, the statistics, the
    normalised rows, the broadcast LayerNorm/bias rows, the PSUM accumulator) has `rows`
    partitions and only valid rows are stored. LayerNorm statistics in fp32 via
    bn_stats/bn_aggr (Din <= 512); the normalised tile is cast to fp16 and transposed
    block by block on the Tensor Engine to feed the projection, whose first matmul
    overwrites the PSUM accumulator. Din multiple of 128, Dout <= 512.
    """
    M, Din = x.shape
    Dout = fc_w.shape[0]
    P = nl.tile_size.pmax
    n_m = (M + P - 1) // P
    n_k = Din // P
    out = nl.ndarray((M, Dout), dtype=x.dtype, buffer=nl.shared_hbm)

    g_row = nl.load(ln_w.reshape((1, Din)), dtype=nl.float32)
    be_row = nl.load(ln_b.reshape((1, Din)), dtype=nl.float32)
    fb_row = nl.load(fc_b.reshape((1, Dout)), dtype=nl.float32)
    w_t = nl.ndarray((P, n_k, Dout), dtype=fc_w.dtype, buffer=nl.sbuf)
    for k in range(n_k):
        w_t[0:P, k, 0:Dout] = nl.load_transpose2d(fc_w[0:Dout, k * P:(k + 1) * P])

    for m in range(n_m):
        r0 = m * P
        rows = min(P, M - r0)
        x_sb = nl.load(x[r0:r0 + rows, 0:Din], dtype=nl.float32)
        stats = nl.ndarray((rows, 6), dtype=nl.float32, buffer=nl.sbuf)
        nisa.bn_stats(dst=stats, data=x_sb)
        mv = nl.ndarray((rows, 2), dtype=nl.float32, buffer=nl.sbuf)
        nisa.bn_aggr(dst=mv, data=stats)
        rstd = nl.rsqrt(nl.add(mv[0:rows, 1:2], EPS))
        xn = nl.ndarray((rows, Din), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(dst=xn, data=x_sb, op0=nl.subtract, operand0=mv[0:rows, 0:1],
                           op1=nl.multiply, operand1=rstd)
        hn = nl.add(nl.multiply(xn, nl.broadcast_to(g_row, shape=(rows, Din))),
                    nl.broadcast_to(be_row, shape=(rows, Din)), dtype=x.dtype)

        acc = nl.ndarray((rows, Dout), dtype=nl.float32, buffer=nl.psum)
        for k in range(n_k):
            ht_ps = nl.ndarray((P, rows), dtype=x.dtype, buffer=nl.psum)
            nisa.nc_transpose(dst=ht_ps, data=hn[0:rows, k * P:(k + 1) * P])
            hn_t = nl.copy(ht_ps, dtype=x.dtype)
            nisa.nc_matmul(dst=acc, stationary=hn_t, moving=w_t[0:P, k, 0:Dout], accumulate=(k > 0))
        res = nl.add(acc, nl.broadcast_to(fb_row, shape=(rows, Dout)), dtype=out.dtype)
        nl.store(out[r0:r0 + rows, 0:Dout], value=res)
    return out
