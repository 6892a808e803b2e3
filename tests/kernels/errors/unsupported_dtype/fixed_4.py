# nki-case: args=64x32:int32,64x1:bfloat16 init1=const(0.0)
# Fix of bad_4.py: load the probabilities as float32 (prob 0 keeps every element).
# expect-output: in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def drop_int(x, p):
    t = nl.load(x)
    pt = nl.load(p, dtype=nl.float32)
    r = nisa.dropout(t, pt)
    out = nl.ndarray((64, 32), dtype=nl.int32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
