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

    i_ci = nl.arange(Ci)[:, None, None]
    i_c = nl.arange(Co)[:, None, None]
    i_h = nl.arange(H)[None, :, None]
    i_w = nl.arange(W)[None, None, :]
    i_r = nl.arange(ROWS)[None, :, None]
    i_r2 = nl.arange(ROWS // 2)[None, :, None]
    i_w2 = nl.arange(W // 2)[None, None, :]
    for n in nl.affine_range(N):
        xp = nl.zeros((Ci, L), dtype=x.dtype, buffer=nl.sbuf)
        xp[i_ci, (i_h + 1) * Wp + 1 + i_w] = nl.load(x[n])
        hp = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        for blk in nl.affine_range(n_blk):
            acc = nl.zeros((Co, ROWS * Wp), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(3):
                for kw in nl.affine_range(3):
                    start = (blk * ROWS + kh) * Wp + kw
                    acc += nisa.nc_matmul(w1[:, kh * 3 + kw, :], xp[:, start:start + ROWS * Wp])
            y = nisa.activation(op=nl.relu, data=acc, bias=b1, dtype=nl.float32)
            hp[i_c, (blk * ROWS + i_r + 1) * Wp + 1 + i_w] = y[i_c, i_r * Wp + i_w]
        for blk in nl.affine_range(n_blk):
            acc = nl.zeros((Co, ROWS * Wp), nl.float32, buffer=nl.psum)
            for kh in nl.affine_range(3):
                for kw in nl.affine_range(3):
                    start = (blk * ROWS + kh) * Wp + kw
                    acc += nisa.nc_matmul(w2[:, kh * 3 + kw, :], hp[:, start:start + ROWS * Wp])
            z = nisa.activation(op=nl.relu, data=acc, bias=b2, dtype=nl.float32)
            nl.store(skip[n, i_c, blk * ROWS + i_r, i_w], value=z[i_c, i_r * Wp + i_w])
            m = nl.maximum(z[i_c, (2 * i_r2) * Wp + 2 * i_w2], z[i_c, (2 * i_r2) * Wp + 2 * i_w2 + 1])
            m = nl.maximum(m, z[i_c, (2 * i_r2 + 1) * Wp + 2 * i_w2])
            m = nl.maximum(m, z[i_c, (2 * i_r2 + 1) * Wp + 2 * i_w2 + 1])
            nl.store(pooled[n, i_c, blk * (ROWS // 2) + i_r2, i_w2], value=m)
    return skip, pooled
