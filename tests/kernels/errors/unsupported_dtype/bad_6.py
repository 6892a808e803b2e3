# nki-case: args=32x64:float32,32x8:int32 init1=randint(0,64)
# nl.gather_flattened: "The indices tensor must contain uint32 values" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def gather_rows(x, i):
    a = nl.load(x)
    it = nl.load(i)
    r = nl.gather_flattened(a, it)  # expect-error: unsupported_dtype  # expect-col: 9
    out = nl.ndarray((32, 8), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
