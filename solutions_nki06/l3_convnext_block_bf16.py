import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

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
            xp = nl.zeros((cw, L), dtype=nl.float32, buffer=nl.sbuf)
            load_tile = nl.load(xr[n, c0:c0 + cw, 0:HW], dtype=nl.float32)
            xp.ap([[xp.strides[0], cw], [Wp * xp.strides[1], H], [xp.strides[1], W]], offset=(Wp * pad + pad) * xp.strides[1])[...] = load_tile.ap([[load_tile.strides[0], cw], [W * load_tile.strides[1], H], [load_tile.strides[1], W]])
            wk = nl.load(dw[c0:c0 + cw, 0:KS * KS], dtype=nl.float32)
            acc = nl.ndarray(xp[:, 0:H * Wp].shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(acc, data=xp[:, 0:H * Wp], op0=nl.multiply, operand0=wk[:, 0:1])
            for tap in nl.static_range(1, KS * KS):
                s = (tap // KS) * Wp + tap % KS
                tensor_scalar_out = nl.ndarray(xp[:, s:s + H * Wp].shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_scalar(tensor_scalar_out, data=xp[:, s:s + H * Wp], op0=nl.multiply, operand0=wk[:, tap:tap + 1])
                acc = nl.add(acc, tensor_scalar_out)
            y = nl.ndarray((cw, HW), dtype=nl.float32, buffer=nl.sbuf)
            y.ap([[y.strides[0], cw], [W * y.strides[1], H], [y.strides[1], W]])[...] = acc.ap([[acc.strides[0], cw], [Wp * acc.strides[1], H], [acc.strides[1], W]])
            tensor_scalar_out2 = nl.ndarray(y.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(tensor_scalar_out2, data=y, op0=nl.add, operand0=nl.load(col(dwconv_bias)[c0:c0 + cw, 0:1], dtype=nl.float32))
            ys.append(tensor_scalar_out2)
        # channel LayerNorm statistics (partition reductions on the PE)
        mean_b = nl.ndarray((P, HW), dtype=nl.float32, buffer=nl.sbuf)
        rstd_b = nl.ndarray((P, HW), dtype=nl.float32, buffer=nl.sbuf)
        for (p0, w) in chunks:
            s1 = nl.zeros((1, w), nl.float32, buffer=nl.psum)
            s2 = nl.zeros((1, w), nl.float32, buffer=nl.psum)
            for ci in nl.static_range(len(ctiles)):
                cw = ctiles[ci][1]
                ones_c = nl.ones((cw, 1), dtype=nl.float32, buffer=nl.sbuf)
                nisa.nc_matmul(s1, ones_c, ys[ci][:, p0:p0 + w], accumulate=True)
                nisa.nc_matmul(s2, ones_c, nl.square(ys[ci][:, p0:p0 + w]), accumulate=True)
            mu = nl.multiply(s1, 1.0 / C)
            var = nl.subtract(nl.multiply(s2, 1.0 / C), nl.square(mu))
            rs = nl.rsqrt(nl.add(var, EPS))
            nc_matmul_out = nl.ndarray((ones_row.shape[1], mu.shape[1]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(nc_matmul_out, ones_row, mu)
            mean_b[:, p0:p0 + w] = nl.copy(nc_matmul_out)
            nc_matmul_out2 = nl.ndarray((ones_row.shape[1], rs.shape[1]), dtype=nl.float32, buffer=nl.psum)
            nisa.nc_matmul(nc_matmul_out2, ones_row, rs)
            rstd_b[:, p0:p0 + w] = nl.copy(nc_matmul_out2)
        yn = []
        for ci in nl.static_range(len(ctiles)):
            c0, cw = ctiles[ci]
            g = nl.load(col(norm_weight)[c0:c0 + cw, 0:1], dtype=nl.float32)
            bb = nl.load(col(norm_bias)[c0:c0 + cw, 0:1], dtype=nl.float32)
            z = nl.multiply(nl.subtract(ys[ci], mean_b[0:cw, :]), rstd_b[0:cw, :])
            tensor_scalar_out3 = nl.ndarray(z.shape, dtype=x.dtype, buffer=nl.sbuf)
            nisa.tensor_scalar(tensor_scalar_out3, data=z, op0=nl.multiply, operand0=g, op1=nl.add, operand1=bb)
            yn.append(tensor_scalar_out3)
        h_t = nl.ndarray((P, n_f, HW), dtype=x.dtype, buffer=nl.sbuf)
        for f in nl.affine_range(n_f):
            b1 = nl.load(col(pwconv1_bias)[f * P:(f + 1) * P, 0:1], dtype=nl.float32)
            w1 = []
            for (c0, cw) in ctiles:
                w1.append(nl.load_transpose2d(pwconv1_weight[f * P:(f + 1) * P, c0:c0 + cw]))   # [cw, 128]
            for (p0, w) in chunks:
                acc = nl.zeros((P, w), nl.float32, buffer=nl.psum)
                for ci in nl.static_range(len(ctiles)):
                    nisa.nc_matmul(acc, w1[ci], yn[ci][:, p0:p0 + w], accumulate=True)
                nisa.activation(h_t[:, f, p0:p0 + w], op=nl.gelu, data=acc, bias=b1)
        for (c0, cw) in ctiles:
            b2 = nl.load(col(pwconv2_bias)[c0:c0 + cw, 0:1], dtype=nl.float32)
            gm = nl.load(col(gamma)[c0:c0 + cw, 0:1], dtype=nl.float32)
            w2 = nl.ndarray((P, n_f, cw), dtype=x.dtype, buffer=nl.sbuf)
            for f in nl.affine_range(n_f):
                w2[:, f, :] = nl.load_transpose2d(pwconv2_weight[c0:c0 + cw, f * P:(f + 1) * P])
            for (p0, w) in chunks:
                acc = nl.zeros((cw, w), nl.float32, buffer=nl.psum)
                for f in nl.affine_range(n_f):
                    nisa.nc_matmul(acc, w2[:, f, :], h_t[:, f, p0:p0 + w], accumulate=True)
                z = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
                nisa.tensor_scalar(z, data=acc, op0=nl.add, operand0=b2, op1=nl.multiply, operand1=gm)
                res = nl.load(xr[n, c0:c0 + cw, p0:p0 + w], dtype=nl.float32)
                nl.store(outr[n, c0:c0 + cw, p0:p0 + w], value=nl.add(z, res, dtype=out.dtype))
    return out
