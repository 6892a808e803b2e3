# nki-case: args=128x64:float32,128x64:float32
# Tries an element-wise product inside the activation by passing a full tile as scale.
# scale must be a scalar or a [P, 1] vector, not a [128, 64] tile.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gated_exp(x, g):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    gt = nl.load(g)
    y = nisa.activation(op=nl.exp, data=xt, scale=gt)  # expect-error: err_activation_scale_scalar_or_vector  # expect-col: 9
    nl.store(res, value=y)
    return res
