# nki-case: args=128x512:float32,128x512:float32
# Optional residual input tested with `if residual:` instead of an explicit None check.
# Fix: test `residual is not None`.
# expect-output: in0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def add_optional_residual(x, residual=None):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    if residual is not None:
        nl.store(res, value=nl.add(xt, nl.load(residual)))
    else:
        nl.store(res, value=xt)
    return res
