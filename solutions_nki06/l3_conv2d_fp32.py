import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def conv2d_kernel(x, weight, bias):
    """Conv2d, stride 1, no padding, as KH*KW shifted matmuls over the flattened image.

    x [B, Ci, H, W], weight [Co, Ci, KH, KW], bias [Co]; Ci, Co <= 128.
    Each image is kept in SBUF as [Ci, H*W] (+ KW-1 zero columns).  For a block of ROWS
    output rows the moving operand of tap (kh, kw) is the contiguous window starting at
    flat offset (oh0 + kh) * W + kw of length ROWS * W: column r * W + c of the product
    is output pixel (oh0 + r, c) for c < Wo, and the last KW-1 columns of each row are
    junk that is never stored.  ROWS * W <= 512 keeps one PSUM bank per block.
    """
    B, Ci, H, W = x.shape
    Co, _, KH, KW = weight.shape
    Ho = H - KH + 1
    Wo = W - KW + 1
    NT = KH * KW
    ROWS = 15                      # output rows per block; Ho % ROWS == 0, ROWS * W <= 512
    n_blk = Ho // ROWS
    out = nl.ndarray((B, Co, Ho, Wo), dtype=x.dtype, buffer=nl.shared_hbm)

    x_flat = x.reshape((B, Ci, H * W))
    w_sb = nl.load(weight.reshape((Co, Ci * NT)))           # column ci * NT + kh * KW + kw
    w_taps = nl.ndarray((Ci, NT, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(NT):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[1], w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[0]), dtype=nl.float32, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT])
        w_taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=weight.dtype)
    b_sb = nl.load(bias.reshape((Co, 1)))

    for b in nl.affine_range(B):
        x_sb = nl.zeros((Ci, H * W + KW - 1), dtype=x.dtype, buffer=nl.sbuf)
        x_sb[:, 0:H * W] = nl.load(x_flat[b, 0:Ci, 0:H * W])
        for blk in nl.affine_range(n_blk):
            acc = nl.zeros((Co, ROWS * W), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(KH):
                for kw in nl.affine_range(KW):
                    start = (blk * ROWS + kh) * W + kw
                    nisa.nc_matmul(acc, w_taps[:, kh * KW + kw, :], x_sb[:, start:start + ROWS * W], accumulate=True)
            res = nl.ndarray(acc.shape, dtype=out.dtype, buffer=nl.sbuf)
            nisa.activation(res, op=nl.copy, data=acc, bias=b_sb)   # [Co, ROWS*W]
            nl.store(out[b, 0:Co, blk * ROWS:blk * ROWS + ROWS, 0:Wo], value=res.ap([[res.strides[0], Co], [W * res.strides[1], ROWS], [res.strides[1], Wo]]))
    return out
