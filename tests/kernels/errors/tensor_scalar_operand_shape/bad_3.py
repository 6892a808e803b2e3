# nki-case: args=32x64:float32,32x4:float32
# nl.dropout: rate is "a scalar value or a tile with 1 element" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def drop(x, p):
    a = nl.load(x)
    pr = nl.load(p)
    r = nl.dropout(a, rate=pr)  # expect-error: tensor_scalar_operand_shape  # expect-col: 9
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
