# nki-case: args=128x128:float32,128x1:float16
# Per-row temperature scaling exp(s * x) with s passed as a float16 tensor.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def scaled_exp(x, s):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    st = nl.load(s)
    y = nisa.activation(op=nl.exp, data=xt, scale=st)  # expect-error: err_activation_scale_invalid_type  # expect-col: 9
    nl.store(res, value=y)
    return res
