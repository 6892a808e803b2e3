# nki-case: args=32x64:float32,32x2x2x2x2:uint32 init1=randint(0,64)
# nl.gather_flattened: data and indices "must be 2-, 3-, or 4-dimensional" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather5(x, i):
    a = nl.load(x)
    it = nl.load(i)
    r = nl.gather_flattened(a, it)  # expect-error: err_exceed_max_supported_dimension  # expect-col: 9
    out = nl.ndarray((32, 2, 2, 2, 2), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
