import numpy as np
import nki
import nki.language as nl
import nki.isa as nisa


GROUPS = 8
EPS = 1e-5


@nki.jit
def groupnorm_kernel(x, gn_weight, gn_bias):
    """GroupNorm(GROUPS) for bfloat16 x [N, C, H, W], C <= 128, statistics in float32.

    Channels on partitions, H*W on the free axis.  Per-channel sums of x and x^2 are
    combined across the channels of a group by one matmul with the block-diagonal 0/1
    matrix G (G[c, c'] = 1 iff c and c' share a group), which also broadcasts each group
    total back to its channels.  G is built with iota: group(c) = floor(c / (C / GROUPS)).
    """
    N, C, H, W = x.shape
    HW = H * W
    cg = C // GROUPS
    out = nl.ndarray((N, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    xr = x.reshape((N, C, HW))
    outr = out.reshape((N, C, HW))

    # group index of every partition (column vector) and of every column (row vector)
    iota_out = nl.ndarray((64, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(iota_out, [[0, 1]], offset=0, channel_multiplier=1)
    gp = nl.floor(nl.multiply(iota_out, 1.0 / cg))
    iota_out2 = nl.ndarray((1, 64), dtype=nl.float32, buffer=nl.sbuf)
    nisa.iota(iota_out2, [[1, C]], offset=0, channel_multiplier=0)
    gf = nl.floor(nl.multiply(iota_out2, 1.0 / cg))
    g_mat = nl.equal(nl.broadcast_to(gf, shape=(C, C)), gp, dtype=nl.float32)

    gam = nl.load(gn_weight.reshape((C, 1)), dtype=nl.float32)
    bet = nl.load(gn_bias.reshape((C, 1)), dtype=nl.float32)
    inv_n = 1.0 / (cg * HW)
    for n in nl.affine_range(N):
        t = nl.load(xr[n], dtype=nl.float32)                           # [C, HW]
        st = nl.ndarray((C, 2), dtype=nl.float32, buffer=nl.sbuf)
        st[:, 0:1] = nl.sum(t, axis=[1], keepdims=True)
        st[:, 1:2] = nl.sum(nl.square(t), axis=[1], keepdims=True)
        gs = nl.ndarray((g_mat.shape[1], st.shape[1]), dtype=nl.float32, buffer=nl.psum)
        nisa.nc_matmul(gs, g_mat, st)                                 # [C, 2] group totals
        mean = nl.multiply(gs[:, 0:1], inv_n)
        var = nl.subtract(nl.multiply(gs[:, 1:2], inv_n), nl.square(mean))
        scale = nl.multiply(gam, nl.rsqrt(nl.add(var, EPS)))
        shift = nl.subtract(bet, nl.multiply(mean, scale))
        y = nl.ndarray(t.shape, dtype=x.dtype, buffer=nl.sbuf)
        nisa.tensor_scalar(y, data=t, op0=nl.multiply, operand0=scale, op1=nl.add, operand1=shift)
        nl.store(outr[n], value=y)
    return out
