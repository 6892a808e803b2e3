# nki-case: args=256x64:float32
# Scales each 128-row tile by its own factor taken from a Python list, indexed by the loop index.
# `t` comes from nl.affine_range, so it is symbolic and cannot index a Python list.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale_tiles(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    scales = [1.0, 3.0]
    for t in nl.affine_range(2):
        tile = nl.load(x[t * 128:(t + 1) * 128, :])
        f = scales[t]  # expect-error: symbolic_loop_index  # expect-col: 13
        nl.store(out[t * 128:(t + 1) * 128, :], value=nl.multiply(tile, f))
    return out
