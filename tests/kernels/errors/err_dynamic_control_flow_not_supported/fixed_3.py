# nki-case: args=128x256:float32,1x1:float32
# Halves x while a runtime-loaded [1, 1] limit is above 1: a Python `while` on a tensor value.
# Fix: the number of halvings must be a compile-time value; here it is passed as a kernel constant.
# expect-output: in0 * 0.25
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def halve_until(x, limit, n_halvings=2):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    for _ in nl.sequential_range(n_halvings):
        xt[...] = nl.multiply(xt, 0.5)
    nl.store(res, value=xt)
    return res
