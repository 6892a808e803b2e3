# nki-case: args=32x64:float32,32x8:int32 init1=randint(0,64)
# Fix of bad_6.py: load the indices as uint32.
# expect-output: np.take_along_axis(in0, in1, 1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_rows(x, i):
    a = nl.load(x)
    it = nl.load(i, dtype=nl.uint32)
    r = nl.gather_flattened(a, it)
    out = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
