# nki-case: args=128x512:float32
# num_free_tiles=(2,) on a tensor without block dimensions: the tuple must be empty or have one
# entry per block dimension (ncc.sbuf.mod_alloc).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def scale2(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0, num_free_tiles=(2,)))  # expect-error: invalid_allocation  # expect-col: 9
    t[...] = nl.load(x)
    t[...] = nl.multiply(t, 2.0)
    nl.store(out, value=t)
    return out
