# nki-case: args=128x128:float32,128x256:float32
# Fix: drop base_addr (default 0); the tile starts at byte 0 of bank 0.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def project(a, w):
    out = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.shared_hbm)
    a_sb = nl.ndarray((nl.par_dim(128), 128), dtype=a.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    w_sb = nl.ndarray((nl.par_dim(128), 256), dtype=w.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=512))
    r_sb = nl.ndarray((nl.par_dim(128), 256), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=1536))
    acc = nl.ndarray((nl.par_dim(128), 256), dtype=nl.float32, buffer=ncc.psum.mod_alloc(base_bank=0))
    a_sb[...] = nl.load(a)
    w_sb[...] = nl.load(w)
    acc[...] = nisa.nc_matmul(a_sb, w_sb)
    r_sb[...] = nl.copy(acc)
    nl.store(out, value=r_sb)
    return out
