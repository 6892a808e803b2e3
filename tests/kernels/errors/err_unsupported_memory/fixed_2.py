# nki-case: args=128x256:float32
# Loads an SBUF tile again with nl.load (the source of a load must be in HBM).
# Fix: the scaled tile is already on-chip; store it directly.
# expect-output: in0 * 2.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def double_load(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    scaled = nl.multiply(nl.load(x), 2.0)
    nl.store(res, value=scaled)
    return res
