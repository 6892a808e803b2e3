import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def div_kernel(a, b):
    """out = a / b for float32 a, b [300, 400]: two full 128-row tiles and a masked 44."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for t in nl.affine_range((rows + P - 1) // P):
        at = nl.load(a[t * P:min(rows, t * P + P), 0:cols])
        bt = nl.load(b[t * P:min(rows, t * P + P), 0:cols])
        nl.store(out[t * P:min(rows, t * P + P), 0:cols], value=nl.divide(at, bt))
    return out
