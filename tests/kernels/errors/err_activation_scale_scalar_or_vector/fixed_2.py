# nki-case: args=128x64:float32,128x64:float32
# Tries an element-wise product inside the activation by passing a full tile as scale.
# Fix: multiply element-wise first, then apply the activation with the default scale.
# expect-output: np.exp(in0 * in1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gated_exp(x, g):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    gt = nl.load(g)
    prod = nl.multiply(xt, gt)
    y = nisa.activation(op=nl.exp, data=prod)
    nl.store(res, value=y)
    return res
