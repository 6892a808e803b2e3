# nki-case: args=128x64:float32,128x512:float32
# Computes a.T @ b on TensorE but loads only half of b's contraction rows.
# Fix: load all 128 contraction rows of b.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def at_b(a, b):
    res = nl.ndarray((64, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    b_sb = nl.load(b)
    ps = nisa.nc_matmul(a_sb, b_sb)
    nl.store(res, value=nl.copy(ps, dtype=a.dtype))
    return res
