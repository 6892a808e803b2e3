# nki-case: args=32x64:float32,32x2:uint32 init1=randint(0,16)
# Fix of bad_5.py: convert the indices to uint16 on load.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_local(x, i):
    t = nl.load(x)
    it = nl.load(i, dtype=nl.uint16)
    r = nisa.local_gather(t, it)
    out = nl.ndarray((32, 2, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
