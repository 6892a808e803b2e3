# nki-case: args=128x512:float32
# Row maxima of x * 0.5 with tensor_scalar_reduce into a full-width reduce_res.
# Fix: a [128, 1] reduce_res.
# expect-output: (in0 * 0.5).max(axis=1, keepdims=True)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def half_row_max(x):
    out = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    m = nl.ndarray((128, 1), dtype=nl.float32)
    y = nisa.tensor_scalar_reduce(data=nl.load(x), op0=nl.multiply, operand0=0.5, reduce_op=nl.max, reduce_res=m)
    nl.store(out, value=m)
    return out
