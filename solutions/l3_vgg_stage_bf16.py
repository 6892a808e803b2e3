import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


def _conv_taps(weight, Co, Ci):
    """[Co, Ci, 3, 3] weight -> SBUF [Ci, 9, Co] (one transposed matrix per tap)."""
    w_sb = nl.load(weight.reshape((Co, Ci * 9)))
    i_co = nl.arange(Co)[:, None]
    i_ci = nl.arange(Ci)[None, :]
    taps = nl.ndarray((Ci, 9, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(9):
        taps[:, tap, :] = nl.copy(nisa.nc_transpose(w_sb[i_co, i_ci * 9 + tap]), dtype=weight.dtype)
    return taps


def _conv3x3(taps, src, C_out, H, Wp):
    """Nine accumulating matmuls over flat windows of a zero-padded [C_in, (H+2)*Wp + 2] buffer."""
    acc = nl.zeros((C_out, H * Wp), nl.float32, buffer=nl.psum)
    for kh in nl.affine_range(3):
        for kw in nl.affine_range(3):
            start = kh * Wp + kw
            acc += nisa.nc_matmul(taps[:, kh * 3 + kw, :], src[:, start:start + H * Wp])
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

    i_ci = nl.arange(Ci)[:, None, None]
    i_c = nl.arange(Co)[:, None, None]
    i_h = nl.arange(H)[None, :, None]
    i_w = nl.arange(W)[None, None, :]
    i_h2 = nl.arange(H // 2)[None, :, None]
    i_w2 = nl.arange(W // 2)[None, None, :]
    for n in nl.affine_range(N):
        xp = nl.zeros((Ci, L), dtype=x.dtype, buffer=nl.sbuf)
        xp[i_ci, (i_h + 1) * Wp + 1 + i_w] = nl.load(x[n])
        y1 = nisa.activation(op=nl.relu, data=_conv3x3(w1, xp, Co, H, Wp), bias=b1, dtype=x.dtype)
        h1 = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        h1[i_c, (i_h + 1) * Wp + 1 + i_w] = y1[i_c, i_h * Wp + i_w]
        y2 = nisa.activation(op=nl.relu, data=_conv3x3(w2, h1, Co, H, Wp), bias=b2, dtype=x.dtype)
        h2 = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        h2[i_c, (i_h + 1) * Wp + 1 + i_w] = y2[i_c, i_h * Wp + i_w]
        y3 = nisa.activation(op=nl.relu, data=_conv3x3(w3, h2, Co, H, Wp), bias=b3, dtype=nl.float32)
        m = nl.maximum(y3[i_c, (2 * i_h2) * Wp + 2 * i_w2], y3[i_c, (2 * i_h2) * Wp + 2 * i_w2 + 1])
        m = nl.maximum(m, y3[i_c, (2 * i_h2 + 1) * Wp + 2 * i_w2])
        m = nl.maximum(m, y3[i_c, (2 * i_h2 + 1) * Wp + 2 * i_w2 + 1], dtype=out.dtype)
        nl.store(out[n], value=m)
    return out
