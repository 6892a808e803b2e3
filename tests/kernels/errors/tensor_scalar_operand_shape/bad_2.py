# nki-case: args=32x16:float32,32x4:float32
# nisa.dropout: prob is "a scalar or a tile of shape (data.shape[0], 1)" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def drop(x, p):
    t = nl.load(x)
    pt = nl.load(p)
    r = nisa.dropout(t, pt)  # expect-error: tensor_scalar_operand_shape  # expect-col: 9
    out = nl.ndarray((32, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
