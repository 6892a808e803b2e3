# nki-case: args=128x512:float32
# Builds a 10^12-element Python list at compile time (was 6-13 GB of memory, then the OOM killer).
# Fix: a compile-time table of the size the kernel uses.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def memory_bomb(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    table = [0] * 128
    nl.store(res, value=nl.load(x))
    return res
