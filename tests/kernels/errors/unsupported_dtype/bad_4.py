# nki-case: args=64x32:int32,64x1:bfloat16
# nisa.dropout on integer data: the prob tile must be float32 (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def drop_int(x, p):
    t = nl.load(x)
    pt = nl.load(p)
    r = nisa.dropout(t, pt)  # expect-error: unsupported_dtype  # expect-col: 9
    out = nl.ndarray((64, 32), dtype=nl.int32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
