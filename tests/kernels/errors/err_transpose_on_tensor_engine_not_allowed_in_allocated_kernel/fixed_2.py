# nki-case: args=128x128:float32,128x256:float32
# Direct-allocation matmul with nl.matmul(x, y) (transpose_x=False inserts a hidden TensorE transpose).
# Fix: pass transpose_x=True, which maps straight to nc_matmul.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def alloc_nl_matmul(a_t, b):
    res = nl.ndarray((128, 256), dtype=b.dtype, buffer=nl.shared_hbm)
    a_sb = nl.ndarray((nl.par_dim(128), 128), dtype=a_t.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    b_sb = nl.ndarray((nl.par_dim(128), 256), dtype=b.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=512))
    a_sb[...] = nl.load(a_t)
    b_sb[...] = nl.load(b)
    ps = nl.ndarray((nl.par_dim(128), 256), dtype=nl.float32, buffer=ncc.psum.mod_alloc(base_bank=0))
    ps[...] = nl.matmul(a_sb, b_sb, transpose_x=True)
    o_sb = nl.ndarray((nl.par_dim(128), 256), dtype=b.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=1536))
    o_sb[...] = nl.copy(ps, dtype=b.dtype)
    nl.store(res, value=o_sb)
    return res
