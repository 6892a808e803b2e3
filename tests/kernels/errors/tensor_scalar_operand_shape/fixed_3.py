# nki-case: args=32x64:float32,32x4:float32 init1=const(0.0)
# Fix of bad_3.py: a single-element rate tile (rate 0 keeps every element).
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def drop(x, p):
    a = nl.load(x)
    pr = nl.load(p[0:1, 0:1])
    r = nl.dropout(a, rate=pr)
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
