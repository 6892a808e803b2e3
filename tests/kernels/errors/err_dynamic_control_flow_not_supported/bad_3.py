# nki-case: args=128x256:float32,1x1:float32
# Halves x while a runtime-loaded [1, 1] limit is above 1: a Python `while` on a tensor value.
# The loop condition depends on data known only at run time.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def halve_until(x, limit):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    lim = nl.load(limit)
    while lim > 1.0:  # expect-error: err_dynamic_control_flow_not_supported  # expect-col: 11
        xt[...] = nl.multiply(xt, 0.5)
        lim[...] = nl.multiply(lim, 0.5)
    nl.store(res, value=xt)
    return res
