# nki-case: args=4x16400:float32,4x8:float32
# nisa.nc_match_replace8: "The data tensor must have no more than 16,384 elements per partition" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def replace(x, v):
    t = nl.load(x)
    vt = nl.load(v)
    r = nisa.nc_match_replace8(data=t, vals=vt, imm=0.0)  # expect-error: max8_free_size  # expect-col: 9
    out = nl.ndarray((4, 16400), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
