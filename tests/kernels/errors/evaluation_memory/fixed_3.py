# nki-case: args=128x512:float32
# Repeats a string 10^12 times.
# Fix: a short name.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def string_repeat(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    name = "x" * 12
    nl.store(res, value=nl.load(x))
    return res
