# nki-case: args=128x256:float32
# Allocates the kernel output inside a small helper function.
# Fix: create the output directly in the kernel body.
# expect-output: np.tanh(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def tanh_kernel(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.tanh(nl.load(x)))
    return res
