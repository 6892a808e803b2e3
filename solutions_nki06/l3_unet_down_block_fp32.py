import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


def _conv_taps(weight, Co, Ci):
    """[Co, Ci, 3, 3] weight -> SBUF [Ci, 9, Co] (one transposed matrix per tap)."""
    w_sb = nl.load(weight.reshape((Co, Ci * 9)))
    taps = nl.ndarray((Ci, 9, Co), dtype=weight.dtype, buffer=nl.sbuf)
    for tap in nl.affine_range(9):
        nc_transpose_out = nl.ndarray((w_sb[0:Co, tap:tap + 9 * (Ci - 1) + 1:9].shape[1], w_sb[0:Co, tap:tap + 9 * (Ci - 1) + 1:9].shape[0]), dtype=nl.float32, buffer=nl.sbuf)
        nisa.nc_transpose(nc_transpose_out, w_sb[0:Co, tap:tap + 9 * (Ci - 1) + 1:9])
        taps[:, tap, :] = nl.copy(nc_transpose_out, dtype=weight.dtype)
    return taps


@nki.jit
def unet_down_block_kernel(x, conv1_weight, conv1_bias, conv2_weight, conv2_bias):
    """skip = relu(conv2(relu(conv1(x)))), pooled = max_pool2d(skip, 2); 3x3 convs, padding 1.

    Images live in SBUF as zero-padded, flattened [C, (H+2)*(W+2) + 2] buffers: tap (kh, kw)
    of a block of ROWS output rows is the contiguous window at (row0 + kh)*(W+2) + kw
    (ROWS*(W+2) <= 512 columns, two junk columns per row).  All of conv1 is written into
    the second padded buffer before conv2 starts, because conv2's blocks read the rows of
    neighbouring blocks; the pool takes the four strided picks of each conv2 block.
    """
    N, Ci, H, W = x.shape
    Co = conv1_weight.shape[0]
    Wp = W + 2
    L = (H + 2) * Wp + 2
    ROWS = 12                       # even, H % ROWS == 0, ROWS * Wp <= 512
    n_blk = H // ROWS
    skip = nl.ndarray((N, Co, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    pooled = nl.ndarray((N, Co, H // 2, W // 2), dtype=x.dtype, buffer=nl.shared_hbm)

    w1 = _conv_taps(conv1_weight, Co, Ci)
    w2 = _conv_taps(conv2_weight, Co, Co)
    b1 = nl.load(conv1_bias.reshape((Co, 1)))
    b2 = nl.load(conv2_bias.reshape((Co, 1)))

    for n in nl.affine_range(N):
        xp = nl.zeros((Ci, L), dtype=x.dtype, buffer=nl.sbuf)
        xp.ap([[xp.strides[0], Ci], [Wp * xp.strides[1], H], [xp.strides[1], W]], offset=(Wp + 1) * xp.strides[1])[...] = nl.load(x[n])
        hp = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        for blk in nl.affine_range(n_blk):
            acc = nl.zeros((Co, ROWS * Wp), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(3):
                for kw in nl.affine_range(3):
                    start = (blk * ROWS + kh) * Wp + kw
                    nisa.nc_matmul(acc, w1[:, kh * 3 + kw, :], xp[:, start:start + ROWS * Wp], accumulate=True)
            y = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(y, op=nl.relu, data=acc, bias=b1)
            hp.ap([[hp.strides[0], Co], [Wp * hp.strides[1], ROWS], [hp.strides[1], W]], offset=(Wp * blk * ROWS + Wp + 1) * hp.strides[1])[...] = y.ap([[y.strides[0], Co], [Wp * y.strides[1], ROWS], [y.strides[1], W]])
        for blk in nl.affine_range(n_blk):
            acc = nl.zeros((Co, ROWS * Wp), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(3):
                for kw in nl.affine_range(3):
                    start = (blk * ROWS + kh) * Wp + kw
                    nisa.nc_matmul(acc, w2[:, kh * 3 + kw, :], hp[:, start:start + ROWS * Wp], accumulate=True)
            z = nl.ndarray(acc.shape, dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(z, op=nl.relu, data=acc, bias=b2)
            nl.store(skip[n, 0:Co, blk * ROWS:blk * ROWS + ROWS, 0:W], value=z.ap([[z.strides[0], Co], [Wp * z.strides[1], ROWS], [z.strides[1], W]]))
            m = nl.maximum(z.ap([[z.strides[0], Co], [Wp * 2 * z.strides[1], (ROWS // 2)], [2 * z.strides[1], (W // 2)]]), z.ap([[z.strides[0], Co], [Wp * 2 * z.strides[1], (ROWS // 2)], [2 * z.strides[1], (W // 2)]], offset=1 * z.strides[1]))
            m = nl.maximum(m, z.ap([[z.strides[0], Co], [Wp * 2 * z.strides[1], (ROWS // 2)], [2 * z.strides[1], (W // 2)]], offset=Wp * z.strides[1]))
            m = nl.maximum(m, z.ap([[z.strides[0], Co], [Wp * 2 * z.strides[1], (ROWS // 2)], [2 * z.strides[1], (W // 2)]], offset=(Wp + 1) * z.strides[1]))
            nl.store(pooled[n, 0:Co, blk * (ROWS // 2):blk * (ROWS // 2) + (ROWS // 2), 0:(W // 2)], value=m)
    return skip, pooled
