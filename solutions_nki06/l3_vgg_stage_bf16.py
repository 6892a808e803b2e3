import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


def _conv_taps(weight, Co, Ci):
    """[Co, Ci, 3, 3] weight -> SBUF [Ci, 9, Co] (one transposed matrix per tap)."""
    w_sb = nl.load(weight.reshape((Co, Ci * 9)))
    taps = nl.ndarray((Ci, 9, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(9):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, tap:tap + 9 * (Ci - 1) + 1:9].shape[1], w_sb[0:Co, tap:tap + 9 * (Ci - 1) + 1:9].shape[0]), dtype=nl.bfloat16, buffer=nl.psum)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, tap:tap + 9 * (Ci - 1) + 1:9])
        taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=weight.dtype)
    return taps


def _conv3x3(taps, src, C_out, H, Wp):
    """Nine accumulating matmuls over flat windows of a zero-padded [C_in, (H+2)*Wp + 2] buffer."""
    acc = nl.zeros((C_out, H * Wp), nl.float32, buffer=nl.psum)
    for kh in nl.affine_range(3):
        for kw in nl.affine_range(3):
            start = kh * Wp + kw
            nisa.nc_matmul(acc, taps[:, kh * 3 + kw, :], src[:, start:start + H * Wp], accumulate=True)
    return acc


@nki.jit
def vgg_stage_kernel(x, conv1_weight, conv1_bias, conv2_weight, conv2_bias, conv3_weight, conv3_bias):
    """max_pool2d(relu(conv3(relu(conv2(relu(conv1(x)))))), 2); 3x3 convs with padding 1, bf16.

    Each activation lives in SBUF as a zero-padded, flattened [C, (H+2)*(W+2) + 2] buffer, so
    a conv is nine accumulating matmuls over contiguous windows (H*(W+2) <= 512 columns,
    two junk columns per row).  Each stage's ReLU output (bias fused in the activation) is
    written straight into the interior of the next padded buffer; fp32 PSUM, bf16 storage.
    """
    N, Ci, H, W = x.shape
    Co = conv1_weight.shape[0]
    Wp = W + 2
    L = (H + 2) * Wp + 2
    out = nl.ndarray((N, Co, H // 2, W // 2), dtype=x.dtype, buffer=nl.shared_hbm)

    w1 = _conv_taps(conv1_weight, Co, Ci)
    w2 = _conv_taps(conv2_weight, Co, Co)
    w3 = _conv_taps(conv3_weight, Co, Co)
    b1 = nl.load(conv1_bias.reshape((Co, 1)), dtype=nl.float32)
    b2 = nl.load(conv2_bias.reshape((Co, 1)), dtype=nl.float32)
    b3 = nl.load(conv3_bias.reshape((Co, 1)), dtype=nl.float32)

    for n in nl.affine_range(N):
        xp = nl.zeros((Ci, L), dtype=x.dtype, buffer=nl.sbuf)
        xp.ap([[xp.strides[0], Ci], [Wp * xp.strides[1], H], [xp.strides[1], W]], offset=(Wp + 1) * xp.strides[1])[...] = nl.load(x[n])
        y1 = nl.ndarray((64, 288), dtype=x.dtype, buffer=nl.sbuf)
        nisa.activation(y1, op=nl.relu, data=_conv3x3(w1, xp, Co, H, Wp), bias=b1)
        h1 = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        h1.ap([[h1.strides[0], Co], [Wp * h1.strides[1], H], [h1.strides[1], W]], offset=(Wp + 1) * h1.strides[1])[...] = y1.ap([[y1.strides[0], Co], [Wp * y1.strides[1], H], [y1.strides[1], W]])
        y2 = nl.ndarray((64, 288), dtype=x.dtype, buffer=nl.sbuf)
        nisa.activation(y2, op=nl.relu, data=_conv3x3(w2, h1, Co, H, Wp), bias=b2)
        h2 = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        h2.ap([[h2.strides[0], Co], [Wp * h2.strides[1], H], [h2.strides[1], W]], offset=(Wp + 1) * h2.strides[1])[...] = y2.ap([[y2.strides[0], Co], [Wp * y2.strides[1], H], [y2.strides[1], W]])
        y3 = nl.ndarray((64, 288), dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(y3, op=nl.relu, data=_conv3x3(w3, h2, Co, H, Wp), bias=b3)
        m = nl.maximum(y3.ap([[y3.strides[0], Co], [Wp * 2 * y3.strides[1], (H // 2)], [2 * y3.strides[1], (W // 2)]]), y3.ap([[y3.strides[0], Co], [Wp * 2 * y3.strides[1], (H // 2)], [2 * y3.strides[1], (W // 2)]], offset=1 * y3.strides[1]))
        m = nl.maximum(m, y3.ap([[y3.strides[0], Co], [Wp * 2 * y3.strides[1], (H // 2)], [2 * y3.strides[1], (W // 2)]], offset=Wp * y3.strides[1]))
        m = nl.maximum(m, y3.ap([[y3.strides[0], Co], [Wp * 2 * y3.strides[1], (H // 2)], [2 * y3.strides[1], (W // 2)]], offset=(Wp + 1) * y3.strides[1]), dtype=out.dtype)
        nl.store(out[n], value=m)
    return out
