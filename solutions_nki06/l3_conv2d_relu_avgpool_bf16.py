import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


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
    w_taps = nl.ndarray((Ci, NT, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(NT):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[1], w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[0]), dtype=nl.bfloat16, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT])
        w_taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=weight.dtype)
    b_sb = nl.load(bias.reshape((Co, 1)))

    for b in nl.affine_range(B):
        xp = nl.zeros((Ci, (H + 2) * Wp + 2), dtype=x.dtype, buffer=nl.sbuf)
        xp.ap([[xp.strides[0], Ci], [Wp * xp.strides[1], H], [xp.strides[1], W]], offset=(Wp + 1) * xp.strides[1])[...] = nl.load(x[b, 0:Ci, 0:H, 0:W])
        acc = nl.zeros((Co, H * Wp), nl.float32, buffer=nl.psum)
        for kh in nl.affine_range(KH):
            for kw in nl.affine_range(KW):
                start = kh * Wp + kw
                nisa.nc_matmul(acc, w_taps[:, kh * KW + kw, :], xp[:, start:start + H * Wp], accumulate=True)
        act = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
        nisa.activation(act, op=nl.relu, data=acc, bias=b_sb)   # [Co, H*Wp]
        top = nl.add(act.ap([[act.strides[0], Co], [Wp * 2 * act.strides[1], Ho], [2 * act.strides[1], Wo]]), act.ap([[act.strides[0], Co], [Wp * 2 * act.strides[1], Ho], [2 * act.strides[1], Wo]], offset=1 * act.strides[1]))
        bot = nl.add(act.ap([[act.strides[0], Co], [Wp * 2 * act.strides[1], Ho], [2 * act.strides[1], Wo]], offset=Wp * act.strides[1]), act.ap([[act.strides[0], Co], [Wp * 2 * act.strides[1], Ho], [2 * act.strides[1], Wo]], offset=(Wp + 1) * act.strides[1]))
        pooled = nl.multiply(nl.add(top, bot), 0.25, dtype=out.dtype)
        nl.store(out[b, 0:Co, 0:Ho, 0:Wo], value=pooled)
    return out
