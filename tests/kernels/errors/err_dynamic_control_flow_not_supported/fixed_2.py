# nki-case: args=128x256:float32,1x1:int32
# Uses a loaded [1, 1] flag directly as an `if` condition.
# Fix: turn the flag into a +1/-1 factor and multiply (no branch on tensor values).
# expect-output: in0 * np.where(in1 != 0, -1.0, 1.0).astype(np.float32)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def maybe_negate(x, flag):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    f = nl.load(flag)
    sign = nl.subtract(1.0, nl.multiply(nl.not_equal(f, 0, dtype=nl.float32), 2.0))
    nl.store(res, value=nl.multiply(xt, sign))
    return res
