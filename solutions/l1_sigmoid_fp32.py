import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import numpy as np


@nki.jit
def sigmoid_kernel(x):
    """Sigmoid of a float32 [300, 200] matrix: two full tiles and a masked 44-row remainder."""
    rows, cols = x.shape
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(cols)[None, :]
    for t in nl.affine_range((rows + P - 1) // P):
        valid = t * P + i_p < rows
        x_tile = nl.load(x[t * P + i_p, i_f], mask=valid)
        y_tile = nl.sigmoid(x_tile, mask=valid)
        nl.store(out[t * P + i_p, i_f], value=y_tile, mask=valid)
    return out
