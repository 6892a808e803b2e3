import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def permute4d_kernel(x):
    """out[n, h, c, w] = x[n, c, h, w] for float16 x [2, 64, 16, 96].

    Per image, the 64 channels are the partitions of a [64, 16, 96] tile read in x's order;
    the permutation is done by the store's access pattern (partition c, free (h, w)) into out.
    """
    N, C, H, W = x.shape
    out = nl.ndarray((N, H, C, W), dtype=x.dtype, buffer=nl.shared_hbm)
    for n in nl.affine_range(N):
        t = nl.load(x[n, 0:C, 0:H, 0:W])
        nl.store(out[n, 0:H, 0:C, 0:W].permute((1, 0, 2)), value=t)
    return out
