# nki-case: args=128x256:float32
# Uses an arange index for the rows and `:` for the columns in the same subscript.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def abs_kernel(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(128)[:, None]
    t = nl.load(x[i_p, :])  # expect-error: err_unsupported_mixing_basic_advanced_tensor_indexing  # expect-col: 17
    nl.store(res, value=nl.abs(t))
    return res
