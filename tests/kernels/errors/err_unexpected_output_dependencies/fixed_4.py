# nki-case: args=256x1024:float32
# Nested tile loops over rows and column chunks; the store ignores the column-chunk index,
# so every iteration of the inner affine loop writes the same region.
# Fix: index the destination's columns with the inner loop variable too.
# expect-output: np.sqrt(np.abs(in0))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def sqrt_abs_tiles(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(2):
        for c in nl.affine_range(2):
            t = nl.load(x[r * 128:(r + 1) * 128, c * 512:(c + 1) * 512])
            nl.store(res[r * 128:(r + 1) * 128, c * 512:(c + 1) * 512], value=nl.sqrt(nl.abs(t)))
    return res
