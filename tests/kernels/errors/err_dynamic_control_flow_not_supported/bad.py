# nki-case: args=128x512:float32,1x1:float32
# expect-message: depends on tensor values
# expect-hint: nl.where
# Doubles x only when a runtime gate value is positive, using a Python `if` on the loaded gate.
# The gate is a tensor value known only at run time.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gated_double(x, gate):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    g = nl.load(gate)
    if g > 0.0:  # expect-error: err_dynamic_control_flow_not_supported  # expect-col: 8
        nl.store(res, value=nl.multiply(xt, 2.0))
    else:
        nl.store(res, value=xt)
    return res
