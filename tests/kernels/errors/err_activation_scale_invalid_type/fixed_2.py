# nki-case: args=128x128:float32,128x1:float16
# Per-row temperature scaling exp(s * x) with s passed as a float16 tensor.
# Fix: load the scale column as float32.
# expect-output: np.exp(in1.astype(np.float32) * in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def scaled_exp(x, s):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    st = nl.load(s, dtype=nl.float32)
    y = nisa.activation(op=nl.exp, data=xt, scale=st)
    nl.store(res, value=y)
    return res
