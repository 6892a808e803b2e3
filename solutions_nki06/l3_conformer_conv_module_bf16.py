import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

LN_EPS = 1e-5
BN_EPS = 1e-5


@nki.jit
def conformer_conv_module_kernel(x, norm_weight, norm_bias, pw1_weight, pw1_bias, dw_weight, dw_bias,
                                 bn_weight, bn_bias, pw2_weight, pw2_bias, bn_running_mean, bn_running_var):
    """x + pw2(silu(bn(dw(glu(pw1(LN(x)^T)))))^T for bf16 x [B, T, C], C % 128 == 0 (T arbitrary).

    LayerNorm runs on token tiles (tokens on partitions, bn_stats over C) and the normalised
    tiles are PE-transposed into channel-major n^T [C, T].  pw1 is produced channel-major
    ([2C, T] blocks, bias per partition); GLU multiplies the value half by sigmoid of the
    gate half and writes into a zero-padded fp32 buffer, on which the depthwise conv is
    K shifted multiply-adds with per-partition tap weights.  dw bias + eval BatchNorm fold
    into one per-channel affine map before SiLU; pw2 contracts over channels with the
    activations as stationary operand, giving token-major tiles for the bias + residual.
    """
    B, T, C = x.shape
    K = dw_weight.shape[2]
    pad = K // 2
    P = nl.tile_size.pmax
    NB = 512
    n_c = C // P
    out = nl.ndarray((B, T, C), dtype=x.dtype, buffer=nl.shared_hbm)
    tiles = [(t0, min(P, T - t0)) for t0 in range(0, T, P)]
    chunks = [(t0, min(NB, T - t0)) for t0 in range(0, T, NB)]

    w1 = pw1_weight.reshape((2 * C, C))
    w2 = pw2_weight.reshape((C, C))
    w1_t = nl.ndarray((P, n_c, 2 * C), dtype=x.dtype, buffer=nl.sbuf)
    w2_t = nl.ndarray((P, n_c, C), dtype=x.dtype, buffer=nl.sbuf)
    for kc in nl.affine_range(n_c):
        w1_t[:, kc, :] = nl.load_transpose2d(w1[0:2 * C, kc * P:(kc + 1) * P])
        w2_t[:, kc, :] = nl.load_transpose2d(w2[0:C, kc * P:(kc + 1) * P])
    b1c = pw1_bias.reshape((2 * C, 1))
    dwr = dw_weight.reshape((C, K))
    g_b = nl.broadcast_to(nl.load(norm_weight.reshape((1, C)), dtype=nl.float32), shape=(P, C))
    be_b = nl.broadcast_to(nl.load(norm_bias.reshape((1, C)), dtype=nl.float32), shape=(P, C))
    b2_b = nl.broadcast_to(nl.load(pw2_bias.reshape((1, C)), dtype=nl.float32), shape=(P, C))

    for b in nl.affine_range(B):
        n_t = nl.ndarray((P, n_c, T), dtype=x.dtype, buffer=nl.sbuf)
        for (t0, rows) in tiles:
            xs = nl.load(x[b, t0:t0 + rows, 0:C], dtype=nl.float32)
            bn_stats_out = nl.ndarray((xs.shape[0], 6), dtype=nl.float32, buffer=nl.sbuf)
            nisa.bn_stats(bn_stats_out, xs)
            mv = nl.ndarray((bn_stats_out.shape[0], 2), dtype=nl.float32, buffer=nl.sbuf)
            nisa.bn_aggr(mv, bn_stats_out)
            rstd = nl.rsqrt(nl.add(mv[:, 1:2], LN_EPS))
            xn = nl.ndarray(xs.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(xn, data=xs, op0=nl.subtract, operand0=mv[:, 0:1], op1=nl.multiply, operand1=rstd)
            xn = nl.add(nl.multiply(xn, g_b[0:rows, :]), be_b[0:rows, :], dtype=x.dtype)
            for kc in nl.affine_range(n_c):
                nc_transpose_out = nl.ndarray((xn[:, kc * P:(kc + 1) * P].shape[1], xn[:, kc * P:(kc + 1) * P].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
                nisa.nc_transpose(nc_transpose_out, xn[:, kc * P:(kc + 1) * P])
                n_t[:, kc, t0:t0 + rows] = nl.copy(nc_transpose_out, dtype=x.dtype)
        z = nl.ndarray((P, n_c, T), dtype=x.dtype, buffer=nl.sbuf)
        for ct in nl.affine_range(n_c):
            ba = nl.load(b1c[ct * P:(ct + 1) * P, 0:1], dtype=nl.float32)
            bg = nl.load(b1c[C + ct * P:C + (ct + 1) * P, 0:1], dtype=nl.float32)
            gp = nl.zeros((P, T + 2 * pad), dtype=nl.float32, buffer=nl.sbuf)
            for (t0, w) in chunks:
                acc_a = nl.zeros((P, w), nl.float32, buffer=nl.psum)
                acc_g = nl.zeros((P, w), nl.float32, buffer=nl.psum)
                for kc in nl.affine_range(n_c):
                    nisa.nc_matmul(acc_a, w1_t[:, kc, ct * P:(ct + 1) * P], n_t[:, kc, t0:t0 + w], accumulate=True)
                    nisa.nc_matmul(acc_g, w1_t[:, kc, C + ct * P:C + (ct + 1) * P], n_t[:, kc, t0:t0 + w], accumulate=True)
                gate = nl.ndarray(acc_g.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.activation(gate, op=nl.sigmoid, data=acc_g, bias=bg)
                tensor_scalar_out = nl.ndarray(acc_a.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_scalar(tensor_scalar_out, data=acc_a, op0=nl.add, operand0=ba)
                gp[:, pad + t0:pad + t0 + w] = nl.multiply(tensor_scalar_out,
                                                           gate)
            wk = nl.load(dwr[ct * P:(ct + 1) * P, 0:K], dtype=nl.float32)
            y = nl.ndarray(gp[:, 0:T].shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(y, data=gp[:, 0:T], op0=nl.multiply, operand0=wk[:, 0:1])
            for k in nl.static_range(1, K):
                tensor_scalar_out2 = nl.ndarray(gp[:, k:k + T].shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_scalar(tensor_scalar_out2, data=gp[:, k:k + T], op0=nl.multiply, operand0=wk[:, k:k + 1])
                y = nl.add(y, tensor_scalar_out2)
            cvec = dw_bias.reshape((C, 1))
            gam = nl.load(bn_weight.reshape((C, 1))[ct * P:(ct + 1) * P, 0:1], dtype=nl.float32)
            bet = nl.load(bn_bias.reshape((C, 1))[ct * P:(ct + 1) * P, 0:1], dtype=nl.float32)
            mu = nl.load(bn_running_mean.reshape((C, 1))[ct * P:(ct + 1) * P, 0:1], dtype=nl.float32)
            var = nl.load(bn_running_var.reshape((C, 1))[ct * P:(ct + 1) * P, 0:1], dtype=nl.float32)
            db = nl.load(cvec[ct * P:(ct + 1) * P, 0:1], dtype=nl.float32)
            s = nl.multiply(gam, nl.rsqrt(nl.add(var, BN_EPS)))
            sh = nl.add(bet, nl.multiply(nl.subtract(db, mu), s))
            nisa.activation(z[:, ct, :], op=nl.silu, data=y, scale=s, bias=sh)
        for (t0, rows) in tiles:
            o_ps = nl.zeros((rows, C), nl.float32, buffer=nl.psum)
            for kc in nl.affine_range(n_c):
                nisa.nc_matmul(o_ps, z[:, kc, t0:t0 + rows], w2_t[:, kc, :], accumulate=True)
            res = nl.load(x[b, t0:t0 + rows, 0:C], dtype=nl.float32)
            nl.store(out[b, t0:t0 + rows, 0:C], value=nl.add(nl.add(o_ps, b2_b[0:rows, :]), res, dtype=out.dtype))
    return out
