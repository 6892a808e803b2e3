import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import numpy as np


@nki.jit
def softshrink_kernel(x):
    """Softshrink with lambda 0.5 of a float32 [500, 256] tensor.

    500 rows of 256: 3 full 128-row tiles and a masked 116-row remainder.
    """
    rows, cols = x.shape
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(cols)[None, :]
    for t in nl.affine_range((rows + P - 1) // P):
        valid = t * P + i_p < rows
        x_tile = nl.load(x[t * P + i_p, i_f], mask=valid)
        y = nl.subtract(x_tile, nl.minimum(nl.maximum(x_tile, -0.5, mask=valid), 0.5, mask=valid), mask=valid)
        nl.store(out[t * P + i_p, i_f], value=y, mask=valid)
    return out
