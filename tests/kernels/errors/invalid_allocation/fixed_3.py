# nki-case: args=128x512:float32
# Fix: a single tile needs no num_free_tiles.
# expect-output: in0 * 2
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def scale2(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    t[...] = nl.load(x)
    t[...] = nl.multiply(t, 2.0)
    nl.store(out, value=t)
    return out
