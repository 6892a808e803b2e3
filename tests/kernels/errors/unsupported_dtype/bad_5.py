# nki-case: args=32x64:float32,32x2:uint32 init1=randint(0,16)
# nisa.local_gather: "The indices in index tile must be uint16 types" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_local(x, i):
    t = nl.load(x)
    it = nl.load(i)
    r = nisa.local_gather(t, it)  # expect-error: unsupported_dtype  # expect-col: 9
    out = nl.ndarray((32, 2, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
