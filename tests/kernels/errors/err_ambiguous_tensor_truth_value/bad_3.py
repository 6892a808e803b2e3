# nki-case: args=128x512:float32,128x512:float32
# Optional residual input tested with `if residual:` instead of an explicit None check.
# The residual is a tensor, so `if residual:` asks for its truth value.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def add_optional_residual(x, residual=None):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    if residual:  # expect-error: err_ambiguous_tensor_truth_value  # expect-col: 8
        nl.store(res, value=nl.add(xt, nl.load(residual)))
    else:
        nl.store(res, value=xt)
    return res
