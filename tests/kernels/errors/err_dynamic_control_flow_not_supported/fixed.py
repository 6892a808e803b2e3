# nki-case: args=128x512:float32,1x1:float32
# Doubles x only when a runtime gate value is positive, using a Python `if` on the loaded gate.
# Fix: compute the branch arithmetically: factor = 1 + (gate > 0).
# expect-output: in0 * np.where(in1 > 0, 2.0, 1.0).astype(np.float32)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gated_double(x, gate):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    g = nl.load(gate)
    factor = nl.add(nl.greater(g, 0.0, dtype=nl.float32), 1.0)
    nl.store(res, value=nl.multiply(xt, factor))
    return res
