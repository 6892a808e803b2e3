import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

NEG = -3.0e38


def _pointwise(w, bias, srcs, co, HW, dtype):
    """1x1 conv of channel chunks srcs = [(c0, cw, tile [cw, HW])] to co <= 128 channels:
    transposed weight blocks as stationary operand, pixels in <= 512-column chunks, + bias.
    Returns an fp32 [co, HW] tile."""
    wr = w.reshape((w.shape[0], w.shape[1]))
    w_t = [nl.load_transpose2d(wr[0:co, c0:c0 + cw]) for (c0, cw, _) in srcs]       # [cw, co]
    b = nl.load(bias.reshape((co, 1)), dtype=nl.float32)
    y = nl.ndarray((co, HW), dtype=nl.float32, buffer=nl.sbuf)
    for p0 in nl.static_range(0, HW, 512):
        n = min(512, HW - p0)
        acc = nl.zeros((co, n), nl.float32, buffer=nl.psum)
        for si in nl.static_range(len(srcs)):
            nisa.nc_matmul(acc, w_t[si], srcs[si][2][:, p0:p0 + n], accumulate=True)
        nisa.tensor_scalar(y[:, p0:p0 + n], data=acc, op0=nl.add, operand0=b)
    return y


def _conv_kxk(w, bias, src, ci, co, K, H, W, dtype):
    """KxK conv (stride 1, pad K // 2) of src [ci, H*W] to co channels.  The input is placed in
    a zero-padded flattened buffer so each tap is a contiguous window; the H*(W+2p) outputs
    run in two halves of H/2 rows (one PSUM bank each); taps' transposed weights come from
    PE transposes of strided weight columns.  Returns an fp32 [co, H*W] tile."""
    pad = K // 2
    Wp = W + 2 * pad
    L = (H + 2 * pad) * Wp + 2 * pad
    hh = H // 2
    xp = nl.zeros((ci, L), dtype=dtype, buffer=nl.sbuf)
    xp.ap([[xp.strides[0], ci], [Wp * xp.strides[1], H], [xp.strides[1], W]], offset=(Wp * pad + pad) * xp.strides[1])[...] = nl.copy(src.ap([[src.strides[0], ci], [W * src.strides[1], H], [src.strides[1], W]]), dtype=dtype)
    w_sb = nl.load(w.reshape((co, ci * K * K)))
    taps = nl.ndarray((ci, K * K, co), dtype=dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(K * K):
        nc_transpose_out = nl.ndarray((w_sb[0:co, tap:tap + (K * K) * (ci - 1) + 1:(K * K)].shape[1], w_sb[0:co, tap:tap + (K * K) * (ci - 1) + 1:(K * K)].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:co, tap:tap + (K * K) * (ci - 1) + 1:(K * K)])
        taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=dtype)
    b = nl.load(bias.reshape((co, 1)), dtype=nl.float32)
    y = nl.ndarray((co, H * W), dtype=nl.float32, buffer=nl.sbuf)
    for half in nl.static_range(2):
        acc = nl.zeros((co, hh * Wp), nl.float32, buffer=nl.psum)
        for kh in nl.affine_range(K):
            for kw in nl.affine_range(K):
                start = (half * hh + kh) * Wp + kw
                nisa.nc_matmul(acc, taps[:, kh * K + kw, :], xp[:, start:start + hh * Wp], accumulate=True)
        a = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(a, data=acc, op0=nl.add, operand0=b)
        y.ap([[y.strides[0], co], [W * y.strides[1], hh], [y.strides[1], W]], offset=W * half * hh * y.strides[1])[...] = a.ap([[a.strides[0], co], [Wp * a.strides[1], hh], [a.strides[1], W]])
    return y


@nki.jit
def inception_module_kernel(x, branch1x1_weight, branch1x1_bias, branch3x3_0_weight, branch3x3_0_bias,
                            branch3x3_1_weight, branch3x3_1_bias, branch5x5_0_weight, branch5x5_0_bias,
                            branch5x5_1_weight, branch5x5_1_bias, branch_pool_1_weight, branch_pool_1_bias):
    """Inception module on bf16 x [N, Cin, H, W] (channel-major, Cin split in 128-channel chunks).

    Branch outputs are computed in fp32 PSUM and stored at their channel offsets of the
    concatenated output: 1x1; 1x1 -> 3x3; 1x1 -> 5x5 (padded flattened buffers, tap
    windows as moving operands); and a 3x3 / stride 1 max-pool (max of nine shifted
    windows of a -inf padded buffer) followed by a 1x1 conv.  The reduced activations are
    rounded to bf16 once before they feed the next conv.
    """
    Nb, Cin, H, W = x.shape
    HW = H * W
    P = nl.tile_size.pmax
    dt = x.dtype
    o1 = branch1x1_weight.shape[0]
    r3, o3 = branch3x3_0_weight.shape[0], branch3x3_1_weight.shape[0]
    r5, o5 = branch5x5_0_weight.shape[0], branch5x5_1_weight.shape[0]
    op = branch_pool_1_weight.shape[0]
    out = nl.ndarray((Nb, o1 + o3 + o5 + op, H, W), dtype=dt, buffer=nl.shared_hbm)
    xr = x.reshape((Nb, Cin, HW))
    outr = out.reshape((Nb, o1 + o3 + o5 + op, HW))
    Wp = W + 2
    L = (H + 2) * Wp + 2

    for n in nl.affine_range(Nb):
        srcs = []
        pooled = []
        for c0 in nl.static_range(0, Cin, P):
            cw = min(P, Cin - c0)
            xt = nl.load(xr[n, c0:c0 + cw, 0:HW])
            srcs.append((c0, cw, xt))
            xp = nl.full((cw, L), NEG, dtype=nl.float32, buffer=nl.sbuf)
            xp.ap([[xp.strides[0], cw], [Wp * xp.strides[1], H], [xp.strides[1], W]], offset=(Wp + 1) * xp.strides[1])[...] = nl.copy(xt.ap([[xt.strides[0], cw], [W * xt.strides[1], H], [xt.strides[1], W]]), dtype=nl.float32)
            m = xp[:, 0:H * Wp]
            for tap in nl.static_range(1, 9):
                s = (tap // 3) * Wp + tap % 3
                m = nl.maximum(m, xp[:, s:s + H * Wp])
            pt = nl.ndarray((cw, HW), dtype=dt, buffer=nl.sbuf)
            pt.ap([[pt.strides[0], cw], [W * pt.strides[1], H], [pt.strides[1], W]])[...] = nl.copy(m.ap([[m.strides[0], cw], [Wp * m.strides[1], H], [m.strides[1], W]]), dtype=dt)
            pooled.append((c0, cw, pt))
        y1 = _pointwise(branch1x1_weight, branch1x1_bias, srcs, o1, HW, dt)
        nl.store(outr[n, 0:o1, 0:HW], value=nl.copy(y1, dtype=dt))
        red3 = nl.copy(_pointwise(branch3x3_0_weight, branch3x3_0_bias, srcs, r3, HW, dt), dtype=dt)
        y3 = _conv_kxk(branch3x3_1_weight, branch3x3_1_bias, red3, r3, o3, 3, H, W, dt)
        nl.store(outr[n, o1:o1 + o3, 0:HW], value=nl.copy(y3, dtype=dt))
        red5 = nl.copy(_pointwise(branch5x5_0_weight, branch5x5_0_bias, srcs, r5, HW, dt), dtype=dt)
        y5 = _conv_kxk(branch5x5_1_weight, branch5x5_1_bias, red5, r5, o5, 5, H, W, dt)
        nl.store(outr[n, o1 + o3:o1 + o3 + o5, 0:HW], value=nl.copy(y5, dtype=dt))
        yp = _pointwise(branch_pool_1_weight, branch_pool_1_bias, pooled, op, HW, dt)
        nl.store(outr[n, o1 + o3 + o5:o1 + o3 + o5 + op, 0:HW], value=nl.copy(yp, dtype=dt))
    return out
