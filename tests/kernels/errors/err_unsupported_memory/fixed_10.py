# nki-case: args=128x128:float32,128x256:float32
# Computes a.T @ b: transposes a on TensorE, then feeds the PSUM result to nl.matmul (x @ y).
# Fix: copy the transposed tile to SBUF first.
# expect-output: in0.T @ in1
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def double_transpose_matmul(a, b):
    res = nl.ndarray((128, 256), dtype=a.dtype, buffer=nl.shared_hbm)
    at = nisa.nc_transpose(nl.load(a))
    ps = nl.matmul(nl.copy(at), nl.load(b))
    nl.store(res, value=nl.copy(ps))
    return res
