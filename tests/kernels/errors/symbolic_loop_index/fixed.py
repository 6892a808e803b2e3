# nki-case: args=300x64:float32
# Copies a [300, 64] tensor tile by tile; the last tile is partial, and its row count is
# computed with min() on the index of a plain Python range() loop.
# Fix: index full 128-row tiles and mask off the rows past the end.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def copy_rows(x):
    n = x.shape[0]
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    ip, jf = nl.mgrid[0:128, 0:64]
    for t in range((n + 127) // 128):
        tile = nl.load(x[t * 128 + ip, jf], mask=(t * 128 + ip < n))
        nl.store(out[t * 128 + ip, jf], value=tile, mask=(t * 128 + ip < n))
    return out
