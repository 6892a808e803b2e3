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


def _conv_block(taps, src, C_out, row0, ROWS, Wp):
    """ROWS output rows of a 3x3 conv: nine accumulating matmuls over flat windows of src."""
    C_in = src.shape[0]
    acc = nl.ndarray((C_out, ROWS * Wp), dtype=nl.float32, buffer=nl.psum)
    for kh in nl.affine_range(3):
        for kw in nl.affine_range(3):
            start = (row0 + kh) * Wp + kw
            nisa.nc_matmul(dst=acc, stationary=taps[0:C_in, kh * 3 + kw, 0:C_out],
                           moving=src[0:C_in, start:start + ROWS * Wp], accumulate=(kh * 3 + kw > 0))
    return acc


@nki.jit
def unet_down_block_kernel(x, conv1_weight, conv1_bias, conv2_weight, conv2_bias):
    """skip = relu(conv2(relu(conv1(x)))), pooled = max_pool2d(skip, 2); 3x3 convs, padding 1.

    Images live in SBUF as zero-padded, flattened [C, (H+2)*(W+2) + 2] buffers: tap (kh, kw)
    of a block of ROWS output rows is the contiguous window at (row0 + kh)*(W+2) + kw
    (ROWS*(W+2) <= 512 columns, two junk columns per row). All of conv1 is written into
    the second padded buffer before conv2 starts, because conv2's blocks read the rows of
    neighbouring blocks; the grids inside the flat buffers are .ap() views, and the pool
    takes four step-2 views of each conv2 block.
    """
    N, Ci, H, W = x.shape
    Co = conv1_weight.shape[0]
    Wp = W + 2
    L = (H + 2) * Wp + 2
    ROWS = 12                       # even, H % ROWS == 0, ROWS * Wp <= 512
    R2, W2 = ROWS // 2, W // 2
    n_blk = H // ROWS
    skip = nl.ndarray((N, Co, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    pooled = nl.ndarray((N, Co, H // 2, W // 2), dtype=x.dtype, buffer=nl.shared_hbm)

    w1 = _conv_taps(conv1_weight, Co, Ci)
    w2 = _conv_taps(conv2_weight, Co, Co)
    b1 = nl.load(conv1_bias.reshape((Co, 1))[0:Co, 0:1])
    b2 = nl.load(conv2_bias.reshape((Co, 1))[0:Co, 0:1])

    for n in nl.affine_range(N):
        xp = nl.zeros((Ci, L), dtype=x.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=xp.ap([[L, Ci], [Wp, H], [1, W]], offset=Wp + 1), src=x[n])
        hp = nl.zeros((Co, L), dtype=x.dtype, buffer=nl.sbuf)
        for blk in nl.affine_range(n_blk):
            acc = _conv_block(w1, xp, Co, blk * ROWS, ROWS, Wp)
            y = nl.ndarray((Co, ROWS * Wp), dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(dst=y, op=nl.relu, data=acc, bias=b1)
            nisa.tensor_copy(dst=hp.ap([[L, Co], [Wp, ROWS], [1, W]], offset=(blk * ROWS + 1) * Wp + 1),
                             src=y.ap([[ROWS * Wp, Co], [Wp, ROWS], [1, W]], offset=0))
        for blk in nl.affine_range(n_blk):
            acc = _conv_block(w2, hp, Co, blk * ROWS, ROWS, Wp)
            z = nl.ndarray((Co, ROWS * Wp), dtype=nl.float32, buffer=nl.sbuf)
            nisa.activation(dst=z, op=nl.relu, data=acc, bias=b2)
            nl.store(skip[n, 0:Co, blk * ROWS:(blk + 1) * ROWS, 0:W],
                     value=z.ap([[ROWS * Wp, Co], [Wp, ROWS], [1, W]], offset=0))
            quads = [z.ap([[ROWS * Wp, Co], [2 * Wp, R2], [2, W2]], offset=dh * Wp + dw)
                     for dh in range(2) for dw in range(2)]
            m = nl.maximum(quads[0], quads[1])
            m = nl.maximum(m, quads[2])
            m = nl.maximum(m, quads[3])
            nl.store(pooled[n, 0:Co, blk * R2:(blk + 1) * R2, 0:W2], value=m)
    return skip, pooled
