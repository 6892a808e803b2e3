# nki-case: args=300x64:float32
# expect-message: is symbolic while the kernel is traced
# expect-hint: nl.static_range
# Copies a [300, 64] tensor tile by tile; the last tile is partial, and its row count is
# computed with min() on the index of a plain Python range() loop.
# range() in a kernel is nl.sequential_range, so `t` is symbolic and min() has no int to return.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def copy_rows(x):
    n = x.shape[0]
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for t in range((n + 127) // 128):
        rows = min(128, n - t * 128)  # expect-error: symbolic_loop_index  # expect-col: 16
        tile = nl.load(x[t * 128:t * 128 + rows, :])
        nl.store(out[t * 128:t * 128 + rows, :], value=tile)
    return out
