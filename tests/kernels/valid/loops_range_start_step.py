# nki-case: args=32x64:float32
# affine_range / sequential_range with (start, stop, step) arguments.
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def k(x):
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    for j in nl.affine_range(1, 8, 2):
        a = nl.load(x[:, nl.ds(j * 8, 8)])
        nl.store(out[:, nl.ds(j * 8, 8)], a)
    for j in nl.sequential_range(0, 8, 2):
        a = nl.load(x[:, nl.ds(j * 8, 8)])
        nl.store(out[:, nl.ds(j * 8, 8)], a)
    return out
