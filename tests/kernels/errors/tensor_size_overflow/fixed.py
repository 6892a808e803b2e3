# nki-case: args=128x512:float32
# Declares a 2^32 x 2^32 fp32 output (2^66 bytes) and stores one tile into it.
# Fix: the output has the shape of the data stored into it.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def huge_out(x):
    res = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(res[0:128, 0:512], value=nl.load(x))
    return res
