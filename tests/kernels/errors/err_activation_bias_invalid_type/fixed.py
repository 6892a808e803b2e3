# nki-case: args=128x256:float32
# exp(x + 3) on ScalarE with an integer bias column.
# Fix: create the bias column as float32.
# expect-output: np.exp(in0 + 3.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def shifted_exp(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    shift = nl.full((128, 1), 3, dtype=nl.float32, buffer=nl.sbuf)
    y = nisa.activation(op=nl.exp, data=xt, bias=shift)
    nl.store(res, value=y)
    return res
