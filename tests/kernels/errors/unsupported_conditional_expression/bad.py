# nki-case: args=512x64:float32
# Halves every tile but the first, choosing the factor with a conditional expression on the
# loop index. Both choices are Python floats: which one applies differs per iteration, so the
# factor cannot be a Python value while the kernel is traced.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def halve_after_first(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        tile = nl.load(x[i * 128:(i + 1) * 128, :])
        f = 0.5 if i > 0 else 1.0  # expect-error: unsupported_conditional_expression  # expect-col: 13
        nl.store(out[i * 128:(i + 1) * 128, :], value=nl.multiply(tile, f))
    return out
