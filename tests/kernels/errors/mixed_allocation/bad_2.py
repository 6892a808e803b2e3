# nki-case: args=128x512:float32
# An nl.sbuf tile (automatic allocation) next to directly allocated tiles.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def add_one(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    y = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=nl.sbuf)  # expect-error: mixed_allocation  # expect-col: 9
    t[...] = nl.load(x)
    y[...] = nl.add(t, 1.0)
    nl.store(out, value=y)
    return out
