import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def add_kernel(a, b):
    """out = a + b for float32 [256, 1024]: independent 128 x 512 tiles."""
    rows, cols = a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    F = 512
    for i in nl.affine_range(rows // P):
        for j in nl.affine_range(cols // F):
            a_tile = nl.load(a[i * P:(i + 1) * P, j * F:(j + 1) * F])
            b_tile = nl.load(b[i * P:(i + 1) * P, j * F:(j + 1) * F])
            nl.store(out[i * P:(i + 1) * P, j * F:(j + 1) * F], value=nl.add(a_tile, b_tile))
    return out
