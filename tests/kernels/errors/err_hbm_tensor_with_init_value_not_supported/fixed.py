# nki-case: args=128x512:float32
# Creates the output with nl.zeros in shared HBM "to be safe".
# Fix: create HBM outputs uninitialised with nl.ndarray.
# expect-output: np.maximum(in0, 0.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def relu_kernel(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.relu(nl.load(x)))
    return res
