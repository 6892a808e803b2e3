# nki-case: args=128x256:float32
# Uses an arange index for the rows and `:` for the columns in the same subscript.
# Fix: use arange indices for both axes.
# expect-output: np.abs(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def abs_kernel(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(256)[None, :]
    t = nl.load(x[i_p, i_f])
    nl.store(res, value=nl.abs(t))
    return res
