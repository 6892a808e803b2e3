# nki-case: args=256x64:float32
# Scales each 128-row tile by its own factor taken from a Python list, indexed by the loop index.
# Fix: nl.static_range unrolls the loop, so `t` is a Python int in each copy of the body.
# expect-output: np.concatenate([in0[:128] * 1.0, in0[128:] * 3.0])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale_tiles(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    scales = [1.0, 3.0]
    for t in nl.static_range(2):
        tile = nl.load(x[t * 128:(t + 1) * 128, :])
        f = scales[t]
        nl.store(out[t * 128:(t + 1) * 128, :], value=nl.multiply(tile, f))
    return out
