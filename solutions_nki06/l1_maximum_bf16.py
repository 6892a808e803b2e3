import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def maximum_kernel(a, b):
    """out = max(a, b) elementwise for bfloat16 a, b [2, 8, 64, 128], viewed as 1024 rows of 128."""
    d0, d1, d2, cols = a.shape
    rows = d0 * d1 * d2
    out = nl.ndarray((d0, d1, d2, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    a2 = a.reshape((rows, cols))
    b2 = b.reshape((rows, cols))
    out2 = out.reshape((rows, cols))
    P = nl.tile_size.pmax
    for t in nl.affine_range(rows // P):
        at = nl.load(a2[t * P:(t + 1) * P, 0:cols])
        bt = nl.load(b2[t * P:(t + 1) * P, 0:cols])
        nl.store(out2[t * P:(t + 1) * P, 0:cols], value=nl.maximum(at, bt))
    return out
