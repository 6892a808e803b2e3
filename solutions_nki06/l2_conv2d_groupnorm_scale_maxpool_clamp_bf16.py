import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


GROUPS = 4
EPS = 1e-5


@nki.jit
def conv2d_groupnorm_scale_maxpool_clamp_kernel(x, scale, conv_weight, conv_bias, gn_weight, gn_bias):
    """clamp(maxpool2(GroupNorm(conv3x3(x)) * scale), 0, 1) for bfloat16 x [B, Ci, H, W]; Ci, Co <= 128.

    Arguments follow named_parameters(): the module's own scale [Co, 1, 1] comes first.
    The convolution is KH*KW accumulating matmuls per block of ROWS output rows over the
    flattened image (tap (kh, kw) is the window at flat offset (row0 + kh) * W + kw; the last
    KW - 1 columns of each row are junk and are dropped when the block is copied out).  The
    whole [Co, Ho * Wo] conv output stays in SBUF in float32 for the group statistics (channel
    sums combined by a same-group 0/1 matrix).  GroupNorm's affine and the per-channel scale
    fold into one scale/shift, applied before the pooling because the scale may be negative.
    """
    B, Ci, H, W = x.shape
    Co, _, KH, KW = conv_weight.shape
    Ho = H - KH + 1
    Wo = W - KW + 1
    NT = KH * KW
    ROWS = 8                                                           # Ho % ROWS == 0, ROWS * W <= 512
    cg = Co // GROUPS
    out = nl.ndarray((B, Co, Ho // 2, Wo // 2), dtype=x.dtype, buffer=nl.shared_hbm)

    x_flat = x.reshape((B, Ci, H * W))
    w_sb = nl.load(conv_weight.reshape((Co, Ci * NT)))
    w_taps = nl.ndarray((Ci, NT, Co), dtype=conv_weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(NT):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[1], w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[0]), dtype=nl.bfloat16, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT])
        w_taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=conv_weight.dtype)
    cb = nl.load(conv_bias.reshape((Co, 1)), dtype=nl.float32)
    gam = nl.load(gn_weight.reshape((Co, 1)), dtype=nl.float32)
    bet = nl.load(gn_bias.reshape((Co, 1)), dtype=nl.float32)
    sc = nl.load(scale.reshape((Co, 1)), dtype=nl.float32)

    iota_out = nl.ndarray((32, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(iota_out, [[0, 1]], offset=0, channel_multiplier=1)
    gp = nl.floor(nl.multiply(iota_out, 1.0 / cg))
    iota_out2 = nl.ndarray((1, 32), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(iota_out2, [[1, Co]], offset=0, channel_multiplier=0)
    gf = nl.floor(nl.multiply(iota_out2, 1.0 / cg))
    g_mat = nl.equal(nl.broadcast_to(gf, shape=(Co, Co)), gp, dtype=nl.float32)

    inv_n = 1.0 / (cg * Ho * Wo)
    for b in nl.affine_range(B):
        x_sb = nl.zeros((Ci, H * W + KW - 1), dtype=x.dtype, buffer=nl.sbuf)
        x_sb[:, 0:H * W] = nl.load(x_flat[b])
        y = nl.ndarray((Co, Ho * Wo), dtype=nl.float32, buffer=nl.sbuf)
        for blk in nl.affine_range(Ho // ROWS):
            acc = nl.zeros((Co, ROWS * W), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(KH):
                for kw in nl.affine_range(KW):
                    start = (blk * ROWS + kh) * W + kw
                    nisa.nc_matmul(acc, w_taps[:, kh * KW + kw, :], x_sb[:, start:start + ROWS * W], accumulate=True)
            nisa.tensor_scalar(y.ap([[y.strides[0], Co], [Wo * y.strides[1], ROWS], [y.strides[1], Wo]], offset=Wo * blk * ROWS * y.strides[1])[...], data=acc.ap([[acc.strides[0], Co], [W * acc.strides[1], ROWS], [acc.strides[1], Wo]]), op0=nl.add, operand0=cb)
        st = nl.ndarray((Co, 2), dtype=nl.float32, buffer=nl.sbuf)
        st[:, 0:1] = nl.sum(y, axis=[1], keepdims=True)
        st[:, 1:2] = nl.sum(nl.square(y), axis=[1], keepdims=True)
        gs = nl.ndarray((g_mat.shape[1], st.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(gs, g_mat, st)                                  # [Co, 2] group totals
        mean = nl.multiply(gs[:, 0:1], inv_n)
        var = nl.subtract(nl.multiply(gs[:, 1:2], inv_n), nl.square(mean))
        a = nl.multiply(nl.multiply(gam, nl.rsqrt(nl.add(var, EPS))), sc)
        c = nl.subtract(nl.multiply(bet, sc), nl.multiply(mean, a))
        z = nl.ndarray(y.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(z, data=y, op0=nl.multiply, operand0=a, op1=nl.add, operand1=c)
        m = nl.maximum(z.ap([[z.strides[0], Co], [Wo * 2 * z.strides[1], (Ho // 2)], [2 * z.strides[1], (Wo // 2)]]), z.ap([[z.strides[0], Co], [Wo * 2 * z.strides[1], (Ho // 2)], [2 * z.strides[1], (Wo // 2)]], offset=1 * z.strides[1]))
        m = nl.maximum(m, z.ap([[z.strides[0], Co], [Wo * 2 * z.strides[1], (Ho // 2)], [2 * z.strides[1], (Wo // 2)]], offset=Wo * z.strides[1]))
        m = nl.maximum(m, z.ap([[z.strides[0], Co], [Wo * 2 * z.strides[1], (Ho // 2)], [2 * z.strides[1], (Wo // 2)]], offset=(Wo + 1) * z.strides[1]))
        res = nl.ndarray(m.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=m, op0=nl.maximum, operand0=0.0, op1=nl.minimum, operand1=1.0)
        nl.store(out[b], value=res)
    return out
