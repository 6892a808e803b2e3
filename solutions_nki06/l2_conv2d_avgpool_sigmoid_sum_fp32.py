import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


@nki.jit
def conv2d_avgpool_sigmoid_sum_kernel(x, conv_weight, conv_bias):
    """sum_{c,h,w} sigmoid(avg_pool2d(conv2d(x), 2))[b] -> [B]; stride 1, no padding.

    Conv as KH*KW shifted matmuls over the flattened image (channels on partitions, a block
    of ROWS output rows on the free axis, the last KW-1 columns of each row junk).  The
    2x2 pool picks the four strided windows of the block with affine indices; each block's
    free-axis sum lands in its own column of a [Co, B * n_blk] tile, and one matmul with a
    ones column reduces over the channel (partition) axis at the end.
    """
    B, Ci, H, W = x.shape
    Co, _, KH, KW = conv_weight.shape
    Ho = H - KH + 1
    Wo = W - KW + 1
    NT = KH * KW
    ROWS = 8                        # even, Ho % ROWS == 0, ROWS * W <= 512
    n_blk = Ho // ROWS
    out = nl.ndarray((B,), dtype=x.dtype, buffer=nl.shared_hbm)

    x_flat = x.reshape((B, Ci, H * W))
    w_sb = nl.load(conv_weight.reshape((Co, Ci * NT)))
    w_taps = nl.ndarray((Ci, NT, Co), dtype=conv_weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(NT):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[1], w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT].shape[0]), dtype=nl.float32, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, tap:tap + NT * (Ci - 1) + 1:NT])
        w_taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=conv_weight.dtype)
    cb = nl.load(conv_bias.reshape((Co, 1)))

    partial = nl.ndarray((Co, B * n_blk), dtype=nl.float32, buffer=nl.sbuf)
    for b in nl.affine_range(B):
        x_sb = nl.zeros((Ci, H * W + KW - 1), dtype=x.dtype, buffer=nl.sbuf)
        x_sb[:, 0:H * W] = nl.load(x_flat[b, 0:Ci, 0:H * W])
        for blk in nl.affine_range(n_blk):
            acc = nl.zeros((Co, ROWS * W), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(KH):
                for kw in nl.affine_range(KW):
                    start = (blk * ROWS + kh) * W + kw
                    nisa.nc_matmul(acc, w_taps[:, kh * KW + kw, :], x_sb[:, start:start + ROWS * W], accumulate=True)
            y = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.tensor_scalar(y, data=acc, op0=nl.add, operand0=cb)
            s = nl.add(y.ap([[y.strides[0], Co], [W * 2 * y.strides[1], (ROWS // 2)], [2 * y.strides[1], (Wo // 2)]]), y.ap([[y.strides[0], Co], [W * 2 * y.strides[1], (ROWS // 2)], [2 * y.strides[1], (Wo // 2)]], offset=1 * y.strides[1]))
            s = nl.add(s, y.ap([[y.strides[0], Co], [W * 2 * y.strides[1], (ROWS // 2)], [2 * y.strides[1], (Wo // 2)]], offset=W * y.strides[1]))
            s = nl.add(s, y.ap([[y.strides[0], Co], [W * 2 * y.strides[1], (ROWS // 2)], [2 * y.strides[1], (Wo // 2)]], offset=(W + 1) * y.strides[1]))
            sg = nl.sigmoid(nl.multiply(s, 0.25))
            partial[:, b * n_blk + blk] = nl.sum(sg, axis=[1, 2])
    ones = nl.ones((Co, 1), dtype=nl.float32, buffer=nl.sbuf)
    tot = nl.ndarray((ones.shape[1], partial.shape[1]), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(tot, ones, partial)                                  # [1, B * n_blk]
    tot_sb = nl.copy(tot)
    res = nl.sum(tot_sb.ap([[tot_sb.strides[0], 1], [n_blk * tot_sb.strides[1], B], [tot_sb.strides[1], n_blk]], offset=0 * tot_sb.strides[0]), axis=[2])                 # [1, B]
    nl.store(out.reshape((1, B)), value=res)
    return out
