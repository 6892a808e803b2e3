import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def relu_kernel(x):
    """out = max(x, 0) for float32 [256, 1024], one 128-row tile (full width) at a time."""
    rows, cols = x.shape
    out = nl.ndarray((rows, cols), dtype=x.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for i in nl.affine_range(rows // P):
        x_tile = nl.load(x[i * P:(i + 1) * P, 0:cols])
        nl.store(out[i * P:(i + 1) * P, 0:cols], value=nl.relu(x_tile))
    return out
