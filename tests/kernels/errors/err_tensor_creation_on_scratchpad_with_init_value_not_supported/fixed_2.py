# nki-case: args=128x128:float32,128x256:float32
# Direct-allocation matmul that zero-initialises its allocated PSUM tile with nl.zeros and accumulates into it.
# Fix: allocate the PSUM tile with nl.ndarray and write the single matmul result with plain assignment.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def alloc_matmul(a, b):
    res = nl.ndarray((128, 256), dtype=a.dtype, buffer=nl.shared_hbm)
    a_sb = nl.ndarray((nl.par_dim(128), 128), dtype=a.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    b_sb = nl.ndarray((nl.par_dim(128), 256), dtype=b.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=512))
    a_sb[...] = nl.load(a)
    b_sb[...] = nl.load(b)
    ps = nl.ndarray((nl.par_dim(128), 256), dtype=nl.float32, buffer=ncc.psum.mod_alloc(base_bank=0))
    ps[...] = nisa.nc_matmul(a_sb, b_sb)
    o_sb = nl.ndarray((nl.par_dim(128), 256), dtype=a.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=1536))
    o_sb[...] = nl.copy(ps, dtype=a.dtype)
    nl.store(res, value=o_sb)
    return res
