# nki-case: args=512x128:float32
# The same kernel without a block dimension: the partition dim leads and the
# four row blocks live in a free dimension (block-dimension migration pattern).
# expect-output: in0 * 2.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def blocked_double(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    stage = nl.ndarray((128, 4, 128), dtype=x.dtype, buffer=nl.sbuf)
    for b in nl.affine_range(4):
        stage[:, b, :] = nl.load(x[b * 128:(b + 1) * 128, :])
        nl.store(res[b * 128:(b + 1) * 128, :], value=nl.multiply(stage[:, b, :], 2.0))
    return res
