# nki-case: args=32x16:float32,32x4:float32 init1=const(1.0)
# Fix of bad_2.py: one drop probability per partition (prob 1 drops everything).
# expect-output: np.zeros_like(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def drop(x, p):
    t = nl.load(x)
    pt = nl.load(p[:, 0:1])
    r = nisa.dropout(t, pt)
    out = nl.ndarray((32, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
