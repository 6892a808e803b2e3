# nki-case: args=128x128:float32
# Direct-allocation transpose with nisa.nc_transpose on the Tensor Engine.
# The TensorE transpose needs a hidden identity matrix, which allocated kernels cannot create.
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
    t_ps[...] = nisa.nc_transpose(x_sb)  # expect-error: err_transpose_on_tensor_engine_not_allowed_in_allocated_kernel  # expect-col: 17
    t_sb = nl.ndarray((nl.par_dim(128), 128), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=1024))
    t_sb[...] = nl.copy(t_ps, dtype=x.dtype)
    nl.store(res, value=t_sb)
    return res
