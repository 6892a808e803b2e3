import nki
import nki.language as nl
import nki.isa as nisa
import numpy as np


@nki.jit
def slice_concat_kernel(a, b):
    """out = cat([a[:, 128:], b], dim=1) for float16 a [256, 384], b [256, 128].

    Pure data movement: per 128-row tile, the kept columns of a land in out[:, 0:256] and b
    in out[:, 256:384].
    """
    rows, a_cols = a.shape
    _, b_cols = b.shape
    start = 128
    kept = a_cols - start
    out = nl.ndarray((rows, kept + b_cols), dtype=a.dtype, buffer=nl.shared_hbm)
    P = nl.tile_size.pmax
    for i in nl.affine_range(rows // P):
        a_tile = nl.load(a[i * P:(i + 1) * P, start:a_cols])
        b_tile = nl.load(b[i * P:(i + 1) * P, 0:b_cols])
        nl.store(out[i * P:(i + 1) * P, 0:kept], value=a_tile)
        nl.store(out[i * P:(i + 1) * P, kept:kept + b_cols], value=b_tile)
    return out
