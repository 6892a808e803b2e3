import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa

EPS = 1e-5


@nki.jit
def depthwise_conv_bn_relu6_kernel(x, conv_weight, bn_weight, bn_bias, bn_running_mean, bn_running_var):
    """relu6(BN_eval(depthwise_conv3x3(x, padding=1))) for fp16 x [B, C, H, W], C <= 128.

    Depthwise convolution has no contraction, so it runs on the Vector engine: channels on
    partitions, the zero-padded image (flattened) on the free axis, and each of the nine
    taps is one multiply-add of a shifted window with a per-partition weight scalar.
    BatchNorm with running statistics folds into one per-channel scale and shift.
    """
    B, C, H, W = x.shape
    KH, KW = conv_weight.shape[2], conv_weight.shape[3]
    out = nl.ndarray((B, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)

    w = nl.load(conv_weight.reshape((C, KH * KW)), dtype=nl.float32)
    gam = nl.load(bn_weight.reshape((C, 1)), dtype=nl.float32)
    bet = nl.load(bn_bias.reshape((C, 1)), dtype=nl.float32)
    mu = nl.load(bn_running_mean.reshape((C, 1)), dtype=nl.float32)
    var = nl.load(bn_running_var.reshape((C, 1)), dtype=nl.float32)
    scale = nl.multiply(gam, nl.rsqrt(nl.add(var, EPS)))
    shift = nl.subtract(bet, nl.multiply(mu, scale))

    Wp = W + 2
    for b in nl.affine_range(B):
        # zero-padded image, flattened: row r of the padded image starts at r * Wp; two extra
        # zero columns let the last tap's window run past the end.  Tap (kh, kw) is then the
        # contiguous window at kh * Wp + kw of length H * Wp (2 junk columns per row).
        xp = nl.zeros((C, (H + 2) * Wp + 2), dtype=nl.float32, buffer=nl.sbuf)
        xp.ap([[xp.strides[0], C], [Wp * xp.strides[1], H], [xp.strides[1], W]], offset=(Wp + 1) * xp.strides[1])[...] = nl.load(x[b], dtype=nl.float32)
        acc = nl.ndarray(xp[:, 0:H * Wp].shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(acc, data=xp[:, 0:H * Wp], op0=nl.multiply, operand0=w[:, 0:1])
        for tap in nl.static_range(1, KH * KW):
            start = (tap // KW) * Wp + tap % KW
            scalar_tensor_tensor_out = nl.ndarray(xp[:, start:start + H * Wp].shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.scalar_tensor_tensor(scalar_tensor_tensor_out, data=xp[:, start:start + H * Wp], op0=nl.multiply, operand0=w[:, tap:tap + 1], op1=nl.add, operand1=acc)
            acc = scalar_tensor_tensor_out
        y = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_scalar(y, data=acc, op0=nl.multiply, operand0=scale, op1=nl.add, operand1=shift)
        res = nl.ndarray(y.shape, dtype=out.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(res, data=y, op0=nl.maximum, operand0=0.0, op1=nl.minimum, operand1=6.0)
        nl.store(out[b], value=res.ap([[res.strides[0], C], [Wp * res.strides[1], H], [res.strides[1], W]]))
    return out
