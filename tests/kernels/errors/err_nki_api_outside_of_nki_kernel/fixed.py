# nki-case: args=128x64:float32
# Creates an epsilon tile at module import time, outside any kernel.
# Fix: keep the constant as a plain Python float (or create the tile inside the kernel).
# expect-output: in0 + np.float32(1e-6)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

EPS = 1e-6


@nki.jit
def add_eps(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.add(nl.load(x), EPS))
    return res
