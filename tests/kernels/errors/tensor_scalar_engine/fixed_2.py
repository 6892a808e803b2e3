# nki-case: args=128x512:int32
# Keeps the low 4 bits of x with a bitwise_and tensor_scalar on the GpSimd Engine.
# Fix: leave the engine to the compiler (Vector Engine).
# expect-output: in0 & 15
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def low_bits(x):
    out = nl.ndarray((128, 512), dtype=x.dtype, buffer=nl.shared_hbm)
    y = nisa.tensor_scalar(nl.load(x), nl.bitwise_and, 15)
    nl.store(out, value=y)
    return out
