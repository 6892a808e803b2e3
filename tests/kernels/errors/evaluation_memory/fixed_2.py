# nki-case: args=128x512:float32
# Doubles a string until it has 2^40 characters.
# Fix: a bounded compile-time string.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def string_doubling(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    s = "x"
    while len(s) < 2**10:
        s = s + s
    nl.store(res, value=nl.load(x))
    return res
