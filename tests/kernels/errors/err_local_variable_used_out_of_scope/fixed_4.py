# nki-case: args=512x128:float32,512x256:float32
# a.T @ b with K = 512: the PSUM accumulator is created inside the K loop and read after it.
# Fix: create the accumulator once, before the K loop.
# expect-output: in0.T @ in1
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def at_b_k512(a, b):
    res = nl.ndarray((128, 256), dtype=a.dtype, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 256), dtype=nl.float32, buffer=nl.psum)
    for k in nl.affine_range(4):
        a_t = nl.load(a[k * 128:(k + 1) * 128, :])
        b_t = nl.load(b[k * 128:(k + 1) * 128, :])
        acc += nisa.nc_matmul(a_t, b_t)
    nl.store(res, value=nl.copy(acc))
    return res
