import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def sum_lastdim_kernel(x):
    """out[i] = sum_j x[i, j] for float32 [384, 1000]: a free-axis reduction per 128-row tile.

    The [384] result is written through a [384, 1] view so each tile stores one column.
    """
    rows, cols = x.shape
    out = nl.ndarray((rows,), dtype=x.dtype, buffer=nl.shared_hbm)
    out2 = out.reshape((rows, 1))
    P = nl.tile_size.pmax
    for i in nl.affine_range(rows // P):
        x_tile = nl.load(x[i * P:(i + 1) * P, 0:cols])
        row_sum = nl.sum(x_tile, axis=1, keepdims=True)
        nl.store(out2[i * P:(i + 1) * P, 0:1], value=row_sum)
    return out
