# nki-case: args=128x512:float32
# Clamps the input in place and returns it, without declaring the parameter mutable.
# Fix: annotate the parameter as nt.mutable_tensor (it is already returned).
# expect-output: np.minimum(in0, 6.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt


@nki.jit
def clamp6_inplace(x: nt.mutable_tensor):
    xt = nl.load(x)
    y = nl.minimum(xt, 6.0)
    nl.store(x, value=y)
    return x
