# nki-case: args=32x4:float32,32x8:float32
# nisa.nc_find_index8: "The data tensor must have between 8 and 16,384 elements per partition" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def find(x, v):
    t = nl.load(x)
    vt = nl.load(v)
    r = nisa.nc_find_index8(data=t, vals=vt)  # expect-error: max8_free_size  # expect-col: 9
    out = nl.ndarray((32, 8), dtype=nl.uint32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
