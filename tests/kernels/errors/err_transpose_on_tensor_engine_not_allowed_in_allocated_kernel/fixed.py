# nki-case: args=128x128:float32
# Direct-allocation transpose with nisa.nc_transpose on the Tensor Engine.
# Fix: allocate an identity matrix yourself and transpose with nisa.nc_matmul.
# expect-output: in0.T
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def alloc_transpose(x):
    res = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    x_sb = nl.ndarray((nl.par_dim(128), 128), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    x_sb[...] = nl.load(x)
    t_ps = nl.ndarray((nl.par_dim(128), 128), dtype=nl.float32, buffer=ncc.psum.mod_alloc(base_bank=0))
    eye_hbm = nl.shared_constant(np.eye(128, dtype=np.float32), dtype=nl.float32)
    eye = nl.ndarray((nl.par_dim(128), 128), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=512))
    eye[...] = nl.load(eye_hbm)
    t_ps[...] = nisa.nc_matmul(x_sb, eye)
    t_sb = nl.ndarray((nl.par_dim(128), 128), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=1024))
    t_sb[...] = nl.copy(t_ps, dtype=x.dtype)
    nl.store(res, value=t_sb)
    return res
