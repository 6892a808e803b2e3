import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

EPS = 1e-6
KS = 7


@nki.jit
def convnext_block_kernel(x, gamma, dwconv_weight, dwconv_bias, norm_weight, norm_bias,
                          pwconv1_weight, pwconv1_bias, pwconv2_weight, pwconv2_bias):
    """x + gamma * pw2(gelu(pw1(LN_c(dwconv7x7(x))))) for bf16 x [N, C, H, W], C <= 256, channel-major.

    The whole block stays channel-major (channels on partitions, in tiles of 128 + 64 for
    C = 192).  The depthwise 7x7 conv is 49 shifted multiply-adds with per-partition tap
    weights over a zero-padded, flattened image (junk columns dropped when compacting).
    LayerNorm over channels is a partition reduction: column sums of y and y^2 are matmuls
    with a ones column (accumulated over the channel tiles), and the per-pixel mean / rstd
    rows are broadcast back to all partitions by matmuls with a ones row.  pw1 produces
    h^T [4C, HW] (bias + GELU per partition), pw2 contracts it back to [C, HW] blocks.
    """
    Nb, C, H, W = x.shape
    F = pwconv1_weight.shape[0]
    HW = H * W
    pad = KS // 2
    Wp = W + 2 * pad
    L = (H + 2 * pad) * Wp + 2 * pad
    P = nl.tile_size.pmax
    n_f = F // P
    out = nl.ndarray((Nb, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((Nb, C, HW))
    outr = out.reshape((Nb, C, HW))
    ctiles = [(c0, min(P, C - c0)) for c0 in range(0, C, P)]
    chunks = [(p0, min(512, HW - p0)) for p0 in range(0, HW, 512)]
    col = lambda v: v.reshape((v.shape[0], 1))

    dw = dwconv_weight.reshape((C, KS * KS))
    ones_row = nl.ones((1, P), dtype=nl.float32, buffer=nl.sbuf)
    for n in nl.affine_range(Nb):
        ys = []
        for (c0, cw) in ctiles:
            i_c = nl.arange(cw)[:, None, None]
            i_h = nl.arange(H)[None, :, None]
            i_w = nl.arange(W)[None, None, :]
            xp = nl.zeros((cw, L), dtype=nl.float32, buffer=nl.sbuf)
            xp[i_c, (i_h + pad) * Wp + pad + i_w] = nl.load(xr[n, c0:c0 + cw, 0:HW], dtype=nl.float32)[i_c, i_h * W + i_w]
            wk = nl.load(dw[c0:c0 + cw, 0:KS * KS], dtype=nl.float32)
            acc = nisa.tensor_scalar(data=xp[:, 0:H * Wp], op0=nl.multiply, operand0=wk[:, 0:1])
            for tap in nl.static_range(1, KS * KS):
                s = (tap // KS) * Wp + tap % KS
                acc = nl.add(acc, nisa.tensor_scalar(data=xp[:, s:s + H * Wp], op0=nl.multiply,
                                                     operand0=wk[:, tap:tap + 1]))
            y = nl.ndarray((cw, HW), dtype=nl.float32, buffer=nl.sbuf)
            y[i_c, i_h * W + i_w] = acc[i_c, i_h * Wp + i_w]
            ys.append(nisa.tensor_scalar(data=y, op0=nl.add,
                                         operand0=nl.load(col(dwconv_bias)[c0:c0 + cw, 0:1], dtype=nl.float32)))
        # channel LayerNorm statistics (partition reductions on the PE)
        mean_b = nl.ndarray((P, HW), dtype=nl.float32, buffer=nl.sbuf)
        rstd_b = nl.ndarray((P, HW), dtype=nl.float32, buffer=nl.sbuf)
        for (p0, w) in chunks:
            s1 = nl.zeros((1, w), nl.float32, buffer=nl.psum)
            s2 = nl.zeros((1, w), nl.float32, buffer=nl.psum)
            for ci in nl.static_range(len(ctiles)):
                cw = ctiles[ci][1]
                ones_c = nl.ones((cw, 1), dtype=nl.float32, buffer=nl.sbuf)
                s1 += nisa.nc_matmul(ones_c, ys[ci][:, p0:p0 + w])
                s2 += nisa.nc_matmul(ones_c, nl.square(ys[ci][:, p0:p0 + w]))
            mu = nl.multiply(s1, 1.0 / C)
            var = nl.subtract(nl.multiply(s2, 1.0 / C), nl.square(mu))
            rs = nl.rsqrt(nl.add(var, EPS))
            mean_b[:, p0:p0 + w] = nl.copy(nisa.nc_matmul(ones_row, mu))
            rstd_b[:, p0:p0 + w] = nl.copy(nisa.nc_matmul(ones_row, rs))
        yn = []
        for ci in nl.static_range(len(ctiles)):
            c0, cw = ctiles[ci]
            g = nl.load(col(norm_weight)[c0:c0 + cw, 0:1], dtype=nl.float32)
            bb = nl.load(col(norm_bias)[c0:c0 + cw, 0:1], dtype=nl.float32)
            z = nl.multiply(nl.subtract(ys[ci], mean_b[0:cw, :]), rstd_b[0:cw, :])
            yn.append(nisa.tensor_scalar(data=z, op0=nl.multiply, operand0=g, op1=nl.add, operand1=bb,
                                         dtype=x.dtype))
        h_t = nl.ndarray((P, n_f, HW), dtype=x.dtype, buffer=nl.sbuf)
        for f in nl.affine_range(n_f):
            b1 = nl.load(col(pwconv1_bias)[f * P:(f + 1) * P, 0:1], dtype=nl.float32)
            w1 = []
            for (c0, cw) in ctiles:
                w1.append(nl.load_transpose2d(pwconv1_weight[f * P:(f + 1) * P, c0:c0 + cw]))   # [cw, 128]
            for (p0, w) in chunks:
                acc = nl.zeros((P, w), nl.float32, buffer=nl.psum)
                for ci in nl.static_range(len(ctiles)):
                    acc += nisa.nc_matmul(w1[ci], yn[ci][:, p0:p0 + w])
                h_t[:, f, p0:p0 + w] = nisa.activation(op=nl.gelu, data=acc, bias=b1, dtype=x.dtype)
        for (c0, cw) in ctiles:
            b2 = nl.load(col(pwconv2_bias)[c0:c0 + cw, 0:1], dtype=nl.float32)
            gm = nl.load(col(gamma)[c0:c0 + cw, 0:1], dtype=nl.float32)
            w2 = nl.ndarray((P, n_f, cw), dtype=x.dtype, buffer=nl.sbuf)
            for f in nl.affine_range(n_f):
                w2[:, f, :] = nl.load_transpose2d(pwconv2_weight[c0:c0 + cw, f * P:(f + 1) * P])
            for (p0, w) in chunks:
                acc = nl.zeros((cw, w), nl.float32, buffer=nl.psum)
                for f in nl.affine_range(n_f):
                    acc += nisa.nc_matmul(w2[:, f, :], h_t[:, f, p0:p0 + w])
                z = nisa.tensor_scalar(data=acc, op0=nl.add, operand0=b2, op1=nl.multiply, operand1=gm)
                res = nl.load(xr[n, c0:c0 + cw, p0:p0 + w], dtype=nl.float32)
                nl.store(outr[n, c0:c0 + cw, p0:p0 + w], value=nl.add(z, res, dtype=out.dtype))
    return out
