# nki-case: args=128x128:float32,128x128:float32
# Element-wise "either positive" mask written with Python `or`.
# Fix: use | for element-wise OR.
# expect-output: np.where((in0 > 0) | (in1 > 0), 1.0, 0.0).astype(np.float32)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def any_positive(a, b):
    res = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    at = nl.load(a)
    bt = nl.load(b)
    hit = (at > 0) | (bt > 0)
    y = nl.where(hit, 1.0, 0.0, dtype=nl.float32)
    nl.store(res, value=y)
    return res
