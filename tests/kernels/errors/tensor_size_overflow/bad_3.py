# nki-case: args=128x512:float32
# (2^61, 1024) fp32: the element count fits in int64 but the byte count does not.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def huge_bytes(x):
    res = nl.ndarray((1 << 61, 1024), dtype=nl.float32, buffer=nl.shared_hbm)  # expect-error: tensor_size_overflow
    nl.store(res[0:128, 0:512], value=nl.load(x))
    return res
