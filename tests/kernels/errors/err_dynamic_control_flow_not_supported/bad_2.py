# nki-case: args=128x256:float32,1x1:int32
# Uses a loaded [1, 1] flag directly as an `if` condition.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def maybe_negate(x, flag):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    f = nl.load(flag)
    if f:  # expect-error: err_dynamic_control_flow_not_supported  # expect-col: 8
        nl.store(res, value=nl.negative(xt))
    else:
        nl.store(res, value=xt)
    return res
