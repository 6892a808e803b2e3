import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def mul_bcast_kernel(x, scale):
    """out = x * scale for x [6, 100, 320] and scale [320] (bfloat16).

    The leading axes are flattened into 600 rows: four full 128-row tiles plus a masked
    88-row remainder. The scale row is loaded once and broadcast across partitions.
    """
    d0, d1, cols = x.shape
    rows = d0 * d1
    out = nl.ndarray((d0, d1, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    x2 = x.reshape((rows, cols))
    out2 = out.reshape((rows, cols))
    P = nl.tile_size.pmax

    scale_row = nl.load(scale.reshape((1, cols))[0:1, 0:cols])
    scale_tile = scale_row.broadcast_to((P, cols))

    for t in nl.affine_range((rows + P - 1) // P):
        x_tile = nl.load(x2[t * P:min(rows, t * P + P), 0:cols])
        y_tile = nl.multiply(x_tile[0:min(P, rows - (t * P))], scale_tile[0:min(P, rows - (t * P))])
        nl.store(out2[t * P:min(rows, t * P + P), 0:cols], value=y_tile)
    return out
