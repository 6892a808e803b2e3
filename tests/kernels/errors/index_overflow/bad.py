# nki-case: args=128x512:float32
# Scales a loop index by 2^62: the index arithmetic leaves the int64 range, where a wrapped
# value could look in bounds.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scaled_index(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        t = nl.load(x[0:128, i * (1 << 62) * 4:i * (1 << 62) * 4 + 128])  # expect-error: index_overflow
        nl.store(res[0:128, i * 128:(i + 1) * 128], value=t)
    return res
