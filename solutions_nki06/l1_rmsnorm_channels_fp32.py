import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def rmsnorm_channels_kernel(x):
    """x / sqrt(mean over dim 1 of x^2 + 1e-5) for float32 x [4, 64, 12, 20].

    Per image, the 240 pixels go to the partitions (a full 128 block and a masked 112-row
    remainder) and the 64 channels along the free axis through a transposed [N, C, H*W] view,
    so the statistic is a free-axis sum.
    """
    N, C, H, W = x.shape
    HW = H * W
    eps = 1e-5
    out = nl.ndarray((N, C, H, W), dtype=x.dtype, buffer=nl.shared_hbm)
    x3 = x.reshape((N, C, HW))
    out3 = out.reshape((N, C, HW))
    P = nl.tile_size.pmax
    for n in nl.affine_range(N):
        for t in nl.affine_range((HW + P - 1) // P):
            xt = nl.load(x3[n, 0:C, t * P:min(HW, t * P + P)].permute((1, 0)))
            ms = nl.multiply(nl.sum(nl.square(xt), axis=1, keepdims=True), 1.0 / C)
            inv = nl.rsqrt(nl.add(ms, eps))
            nl.store(out3[n, 0:C, t * P:min(HW, t * P + P)].permute((1, 0)), value=nl.multiply(xt, inv))
    return out
