# nki-case: args=128x512:float32
# t0 occupies bytes [0, 2048) and t1 bytes [1024, 3072) of every partition, and both are live
# at the same time: the compiler may not catch this lifetime conflict, and the hardware result
# would be wrong (nki_direct_allocation_guide.rst, "Lifetime Conflicts"). Warning only.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def sum_two(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    t0 = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    t1 = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=1024))  # expect-warning: allocation_overlap
    r = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=8192))
    t0[...] = nl.load(x)
    t1[...] = nl.multiply(t0, 2.0)
    r[...] = nl.add(t0, t1)
    nl.store(out, value=r)
    return out
