# nki-case: args=128x64:float32,128x256:float32
# Column sums of a matmul result with a GpSimd partition reduce reading PSUM.
# GpSimd instructions cannot access PSUM.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def matmul_colsum(a, b):
    res = nl.ndarray((1, 256), dtype=a.dtype, buffer=nl.shared_hbm)
    ps = nisa.nc_matmul(nl.load(a), nl.load(b))
    s = nisa.tensor_partition_reduce(np.add, ps)  # expect-error: err_unsupported_memory  # expect-col: 9
    nl.store(res, value=s)
    return res
