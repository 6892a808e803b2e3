# nki-case: args=128x512:float32
# Builds a 10^12-element Python list at compile time (was 6-13 GB of memory, then the OOM killer).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def memory_bomb(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    table = [0] * 10**12  # expect-error: evaluation_memory
    nl.store(res, value=nl.load(x))
    return res
