# nki-case: args=32x4x16:float32
# nl.softmax: axis "can only be the last contiguous dim(s) of the tile" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def softmax3(x):
    t = nl.load(x)
    r = nl.softmax(t, axis=1)  # expect-error: softmax_axis  # expect-col: 9
    out = nl.ndarray((32, 4, 16), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
