import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def silu_kernel(x):
    """SiLU of a float16 [2, 128, 640] tensor, viewed as 256 rows of 640."""
    d0, d1, cols = x.shape
    rows = d0 * d1
    out = nl.ndarray((d0, d1, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    x2 = x.reshape((rows, cols))
    out2 = out.reshape((rows, cols))
    P = nl.tile_size.pmax
    for i in nl.affine_range(rows // P):
        x_tile = nl.load(x2[i * P:(i + 1) * P, 0:cols])
        nl.store(out2[i * P:(i + 1) * P, 0:cols], value=nl.silu(x_tile))
    return out
