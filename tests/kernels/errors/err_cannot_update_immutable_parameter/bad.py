# nki-case: args=128x512:float32
# Clamps the input in place and returns it, without declaring the parameter mutable.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt


@nki.jit
def clamp6_inplace(x):
    xt = nl.load(x)
    y = nl.minimum(xt, 6.0)
    nl.store(x, value=y)  # expect-error: err_cannot_update_immutable_parameter  # expect-col: 5
    return x
