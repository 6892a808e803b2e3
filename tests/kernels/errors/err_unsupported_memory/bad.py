# nki-case: args=128x256:float32
# Applies nl.exp straight to the HBM input without loading it.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_direct(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    y = nl.exp(x)  # expect-error: err_unsupported_memory  # expect-col: 9
    nl.store(res, value=y)
    return res
