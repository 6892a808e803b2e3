# nki-case: args=32x64:float32,32x2x2x2x2:uint32 init1=randint(0,64)
# Fix of bad_3.py: merge two index dimensions (the free dims are flattened for the gather anyway).
# expect-output: np.take_along_axis(in0, in1.reshape(32, -1), 1).reshape(32, 2, 2, 4)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather5(x, i):
    a = nl.load(x)
    it = nl.load(i.reshape((32, 2, 2, 4)))
    r = nl.gather_flattened(a, it)
    out = nl.ndarray((32, 2, 2, 4), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
