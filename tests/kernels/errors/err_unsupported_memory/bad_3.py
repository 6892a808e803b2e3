# nki-case: args=128x128:float32,128x128:float32,128x128:float32
# Chains two TensorE matmuls, feeding the PSUM result of the first straight into the second.
# nc_matmul reads its operands from SBUF only.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def chained_matmul(a, b, c):
    res = nl.ndarray((128, 128), dtype=a.dtype, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    b_sb = nl.load(b)
    c_sb = nl.load(c)
    ab = nisa.nc_matmul(a_sb, b_sb)
    abc = nisa.nc_matmul(c_sb, ab)  # expect-error: err_unsupported_memory  # expect-col: 11
    nl.store(res, value=nl.copy(abc))
    return res
