# nki-case: args=512x64:float32
# Halves every tile but the first, choosing the factor with a conditional expression on the
# loop index.
# Fix: an if statement on the index (traced as a branch) stores the result of each case.
# expect-output: np.concatenate([in0[:128], in0[128:] * 0.5])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def halve_after_first(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        tile = nl.load(x[i * 128:(i + 1) * 128, :])
        if i > 0:
            nl.store(out[i * 128:(i + 1) * 128, :], value=nl.multiply(tile, 0.5))
        else:
            nl.store(out[i * 128:(i + 1) * 128, :], value=tile)
    return out
