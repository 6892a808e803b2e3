# nki-case: args=128x512:float32
# Declares a 2^32 x 2^32 fp32 output (2^66 bytes) and stores one tile into it.
# No device holds such a tensor, and its size overflows 64-bit byte arithmetic (was a SIGSEGV).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def huge_out(x):
    res = nl.ndarray((1 << 32, 1 << 32), dtype=nl.float32, buffer=nl.shared_hbm)  # expect-error: tensor_size_overflow
    nl.store(res[0:128, 0:512], value=nl.load(x))
    return res
