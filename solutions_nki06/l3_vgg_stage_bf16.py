# Hand-written for NKI 0.6 (not produced by nkiagent migrate).
import nki
import nki.language as nl
import nki.isa as nisa


def _conv_taps(weight, Co, Ci):
    """[Co, Ci, 3, 3] weight -> SBUF [Ci, 9, Co] (one transposed matrix per tap)."""
    w_sb = nl.load(weight.reshape((Co, Ci * 9))[0:Co, 0:Ci * 9])
    taps = nl.ndarray((Ci, 9, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(9):
        t_ps = nl.ndarray((Ci, Co), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_transpose(dst=t_ps, data=w_sb[0:Co, tap:tap + 9 * (Ci - 1) + 1:9])
        nisa.tensor_copy(dst=taps[0:Ci, tap, 0:Co], src=t_ps)
    return taps


def _conv3x3(taps, src, C_out, H, Wp):
    """Nine accumulating matmuls over flat windows of a zero-padded [C_in, (H+2)*Wp + 2] buffer."""
    acc = nl.ndarray((C_out, H * Wp), dtype=nl.float32, buffer=nl.psum)
    C_in = src.shape[0]
    for kh in nl.affine_range(3):
        for kw in nl.affine_range(3):
            start = kh * Wp + kw
            nisa.nc_matmul(dst=acc, stationary=taps[0:C_in, kh * 3 + kw, 0:C_out],
                           moving=src[0:C_in, start:start + H * Wp], accumulate=(kh * 3 + kw > 0))
    return acc


def _interior(buf, C, H, W, Wp):
    """The [C, H, W] interior (row 1.., column 1..) of a padded flat [C, L] buffer."""
    return buf.ap([[buf.shape[1], C], [Wp, H], [1, W]], offset=Wp + 1)


def _valid(y, C, H, W, Wp):
    """The [C, H, W] valid columns of a conv result laid out as [C, H * Wp]."""
    return y.ap([[H * Wp, C], [Wp, H], [1, W]], offset=0)


def _relu_bias(acc, bias, dtype):
    y = nl.ndarray(acc.shape, dtype=dtype, buffer=nl.sbuf)
    nisa.activation(dst=y, op=nl.relu, data=acc, bias=bias)
    return y


@nki.jit
def vgg_stage_kernel(x, conv1_weight, conv1_bias, conv2_weight, conv2_bias, conv3_weight, conv3_bias):
    """max_pool2d(relu(conv3(relu(conv2(relu(conv1(x)))))), 2); 3x3 convs with padding 1, bf16.

    Each activation lives in SBUF as a zero-padded, flattened [C, (H+2)*(W+2) + 2] buffer, so
    a conv is nine accumulating matmuls over contiguous windows (H*(W+2) <= 512 columns,
    two junk columns per row). Each stage's ReLU output (bias fused in the activation) is
    copied into the interior of the next padded buffer through .ap() views; the 2x2 pool
    reads four step-2 views. fp32 PSUM, bf16 storage.
    """
    N, Ci, H, W = x.shape
    Co = conv1_weight.shape[0]
    Wp = W + 2
    L = (H + 2) * Wp + 2
    H2, W2 = H // 2, W // 2
    out = nl.ndarray((N, Co, H2, W2), dtype=x.dtype, buffer=nl.shared_hbm)

    w1 = _conv_taps(conv1_weight, Co, Ci)
    w2 = _conv_taps(conv2_weight, Co, Co)
    w3 = _conv_taps(conv3_weight, Co, Co)
    b1 = nl.load(conv1_bias.reshape((Co, 1))[0:Co, 0:1], dtype=nl.float32)
    b2 = nl.load(conv2_bias.reshape((Co, 1))[0:Co, 0:1], dtype=nl.float32)
    b3 = nl.load(conv3_bias.reshape((Co, 1))[0:Co, 0:1], dtype=nl.float32)

    for n in nl.affine_range(N):
        xp = nl.zeros((Ci, L), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=_interior(xp, Ci, H, W, Wp), src=x[n])
        y1 = _relu_bias(_conv3x3(w1, xp, Co, H, Wp), b1, x.dtype)
        h1 = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        nisa.tensor_copy(dst=_interior(h1, Co, H, W, Wp), src=_valid(y1, Co, H, W, Wp))
        y2 = _relu_bias(_conv3x3(w2, h1, Co, H, Wp), b2, x.dtype)
        h2 = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        nisa.tensor_copy(dst=_interior(h2, Co, H, W, Wp), src=_valid(y2, Co, H, W, Wp))
        y3 = _relu_bias(_conv3x3(w3, h2, Co, H, Wp), b3, nl.float32)
        quads = [y3.ap([[H * Wp, Co], [2 * Wp, H2], [2, W2]], offset=dh * Wp + dw) for dh in range(2) for dw in range(2)]
        m = nl.maximum(quads[0], quads[1])
        m = nl.maximum(m, quads[2])
        m = nl.maximum(m, quads[3], dtype=out.dtype)
        nl.store(out[n], value=m)
    return out
