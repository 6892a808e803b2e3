import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import numpy as np


@nki.jit
def div_kernel(a, b):
    """out = a / b for float32 a, b [300, 400]: two full 128-row tiles and a masked 44."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    i_p = nl.arange(P)[:, None]
    i_f = nl.arange(cols)[None, :]
    for t in nl.affine_range((rows + P - 1) // P):
        valid = t * P + i_p < rows
        at = nl.load(a[t * P + i_p, i_f], mask=valid)
        bt = nl.load(b[t * P + i_p, i_f], mask=valid)
        nl.store(out[t * P + i_p, i_f], value=nl.divide(at, bt, mask=valid), mask=valid)
    return out
