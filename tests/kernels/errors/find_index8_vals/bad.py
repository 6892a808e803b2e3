# nki-case: args=32x64:float32,32x4:float32
# nisa.nc_match_replace8: "The vals tensor must have exactly 8 elements per partition" (2.24 docstring).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def replace(x, v):
    t = nl.load(x)
    vt = nl.load(v)
    r = nisa.nc_match_replace8(data=t, vals=vt, imm=0.0)  # expect-error: find_index8_vals  # expect-col: 9
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    return out
