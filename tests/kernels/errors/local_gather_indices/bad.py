# nki-case: args=16x64:float32,16x512:uint16 init1=randint(0,16)
# nisa.local_gather: "The number of indices for gather per core must be less than or equal to 4096" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_many(x, i):
    t = nl.load(x)
    it = nl.load(i)
    r = nisa.local_gather(t, it)  # expect-error: local_gather_indices  # expect-col: 9
    out = nl.ndarray((16, 512, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
