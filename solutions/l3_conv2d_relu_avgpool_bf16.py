import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def conv2d_relu_avgpool_kernel(x, weight, bias):
    """AvgPool2d(2)(relu(conv2d(x, 3x3, padding 1))) for x [B, Ci, H, W], weight [Co, Ci, 3, 3];
    Ci, Co <= 128, H and W even, H * (W + 2) <= 512 (one PSUM bank per image).

    Each image is placed in a zero-padded SBUF row buffer [Ci, (H+2) * Wp] (Wp = W + 2, plus
    2 spare zero columns) so that tap (kh, kw) is one contiguous window of H * Wp columns
    starting at kh * Wp + kw; column r * Wp + c of the product is output pixel (r, c) for
    c < W.  Bias + ReLU is one activation; the 2x2 average reads four strided views.
    """
    B, Ci, H, W = x.shape
    Co, _, KH, KW = weight.shape
    Wp = W + 2
    NT = KH * KW
    Ho = H // 2
    Wo = W // 2
    out = nl.ndarray((B, Co, Ho, Wo), dtype=x.dtype, buffer=nl.shared_hbm)

    w_sb = nl.load(weight.reshape((Co, Ci * NT)))                # column ci * NT + tap
    i_co = nl.arange(Co)[:, None]
    i_ci = nl.arange(Ci)[None, :]
    w_taps = nl.ndarray((Ci, NT, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(NT):
        w_taps[:, tap, :] = nl.copy(nisa.nc_transpose(w_sb[i_co, i_ci * NT + tap]), dtype=weight.dtype)
    b_sb = nl.load(bias.reshape((Co, 1)))

    i_c3 = nl.arange(Ci)[:, None, None]
    i_h = nl.arange(H)[None, :, None]
    i_w = nl.arange(W)[None, None, :]
    i_o = nl.arange(Co)[:, None, None]
    i_i = nl.arange(Ho)[None, :, None]
    i_j = nl.arange(Wo)[None, None, :]
    for b in nl.affine_range(B):
        xp = nl.zeros((Ci, (H + 2) * Wp + 2), dtype=x.dtype, buffer=nl.sbuf)
        xp[i_c3, (i_h + 1) * Wp + 1 + i_w] = nl.load(x[b, i_c3, i_h, i_w])
        acc = nl.zeros((Co, H * Wp), nl.float32, buffer=nl.psum)
        for kh in nl.affine_range(KH):
            for kw in nl.affine_range(KW):
                start = kh * Wp + kw
                acc += nisa.nc_matmul(w_taps[:, kh * KW + kw, :], xp[:, start:start + H * Wp])
        act = nisa.activation(op=nl.relu, data=acc, bias=b_sb, dtype=nl.float32)   # [Co, H*Wp]
        top = nl.add(act[i_o, (2 * i_i) * Wp + 2 * i_j], act[i_o, (2 * i_i) * Wp + 2 * i_j + 1])
        bot = nl.add(act[i_o, (2 * i_i + 1) * Wp + 2 * i_j], act[i_o, (2 * i_i + 1) * Wp + 2 * i_j + 1])
        pooled = nl.multiply(nl.add(top, bot), 0.25, dtype=out.dtype)
        nl.store(out[b, i_o, i_i, i_j], value=pooled)
    return out
