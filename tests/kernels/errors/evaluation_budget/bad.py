# nki-case: args=128x512:float32
# Unrolls a 10^9-iteration nl.static_range at compile time (was 6-13 GB of memory).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def unroll_forever(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    acc = 0
    for i in nl.static_range(10**9):  # expect-error: evaluation_budget
        acc += i
    nl.store(res, value=nl.load(x))
    return res
