# nki-case: args=128x512:float32
# A rank-3 output of (2^40)^3 elements: the element count itself overflows int64.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def huge_out3(x):
    res = nl.ndarray((1 << 40, 1 << 40, 1 << 40), dtype=nl.float32, buffer=nl.shared_hbm)  # expect-error: tensor_size_overflow
    nl.store(res[0, 0:128, 0:512], value=nl.load(x))
    return res
