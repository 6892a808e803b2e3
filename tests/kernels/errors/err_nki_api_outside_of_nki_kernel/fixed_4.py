# nki-case: args=128x64:float32
# The output buffer is declared once at module level with nl.ndarray and reused by the kernel.
# Fix: create the output inside the kernel, at its top level.
# expect-output: -in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def negate(x):
    out = nl.ndarray((128, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, value=nl.negative(nl.load(x)))
    return out
