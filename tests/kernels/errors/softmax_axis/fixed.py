# nki-case: args=32x4x16:float32
# Fix of bad.py: normalise over all trailing free axes (1, 2).
# expect-output: (lambda e: e / e.sum((1, 2), keepdims=True))(np.exp(in0 - in0.max((1, 2), keepdims=True)))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def softmax3(x):
    t = nl.load(x)
    r = nl.softmax(t, axis=(1, 2))
    out = nl.ndarray((32, 4, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
