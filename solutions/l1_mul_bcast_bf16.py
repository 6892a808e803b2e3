import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
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

    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(cols)[None, :]
    scale_row = nl.load(scale.reshape((1, cols))[0:1, 0:cols])
    scale_tile = scale_row.broadcast_to((P, cols))

    for t in nl.affine_range((rows + P - 1) // P):
        valid = t * P + i_p < rows
        x_tile = nl.load(x2[t * P + i_p, i_f], mask=valid)
        y_tile = nl.multiply(x_tile, scale_tile, mask=valid)
        nl.store(out2[t * P + i_p, i_f], value=y_tile, mask=valid)
    return out
