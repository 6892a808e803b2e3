# nki-case: args=128x128:float32
# Computes exp on-chip but never creates, writes or returns an output.
# The diagnostic is expected on the kernel's `def` line.
# Fix: create a shared_hbm output, store the result into it and return it.
# expect-output: np.exp(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_nowhere(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    y = nl.exp(xt)
    nl.store(res, value=y)
    return res
