# nki-case: args=128x512:float32
# Unrolls a 10^9-iteration nl.static_range at compile time (was 6-13 GB of memory).
# Fix: the closed form of the sum; unroll only small trip counts.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def unroll_forever(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    n = 10**9
    acc = n * (n - 1) // 2
    nl.store(res, value=nl.load(x))
    return res
