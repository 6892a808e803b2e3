# nki-case: args=128x512:float32,1x512:float32
# Adds a [1, 512] bias row to a [128, 512] tile with the Python `+` operator.
# Fix: nl.add broadcasts along the partition dim.
# expect-output: in0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def add_row_operator(x, bias):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    bt = nl.load(bias)
    y = nl.add(xt, bt)
    nl.store(res, value=y)
    return res
