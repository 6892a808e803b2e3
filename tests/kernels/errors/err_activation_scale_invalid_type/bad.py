# nki-case: args=128x512:float32
# sigmoid(0.5 * x) with the scale held in a bfloat16 column.
# A vector scale must be float32; this one is bfloat16.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def half_sigmoid(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    half = nl.full((128, 1), 0.5, dtype=nl.bfloat16, buffer=nl.sbuf)
    y = nisa.activation(op=nl.sigmoid, data=xt, scale=half)  # expect-error: err_activation_scale_invalid_type  # expect-col: 9
    nl.store(res, value=y)
    return res
