# nki-case: args=128x64:float32
# A scratch tile is created at module level and never used by the kernel.
# Fix: drop the module-level tile (create tiles inside the kernel where they are needed).
# expect-output: in0 * 2.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def double(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.multiply(nl.load(x), 2.0))
    return res
