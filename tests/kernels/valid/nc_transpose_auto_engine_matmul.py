# nki-case: args=128x128:float32,128x256:float32
# nisa.nc_transpose without engine= lets the compiler choose the engine (TensorE for a
# [128, 128] tile, result in PSUM); the official nki-samples flash_attn_bwd feeds such a
# transpose straight into nc_matmul as its stationary operand.
# expect-output: in0 @ in1
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def transpose_then_matmul(a, b):
    out = nl.ndarray((128, 256), dtype=nl.float32, buffer=nl.shared_hbm)
    a_t = nl.load(a)
    b_t = nl.load(b)
    a_tr = nisa.nc_transpose(a_t)
    prod = nisa.nc_matmul(a_tr, b_t)
    nl.store(out, value=nl.copy(prod, dtype=nl.float32))
    return out
