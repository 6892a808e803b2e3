# nki-case: args=128x256:float32,128x512:float32
# a.T @ b on TensorE with a 256-wide stationary operand.
# Fix: split the output rows (stationary free dim) into two 128-wide chunks.
# expect-output: in0.T @ in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def wide_stationary(a, b):
    res = nl.ndarray((256, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    b_sb = nl.load(b)
    for m in nl.affine_range(2):
        a_sb = nl.load(a[:, m * 128:(m + 1) * 128])
        ps = nisa.nc_matmul(a_sb, b_sb)
        nl.store(res[m * 128:(m + 1) * 128, :], value=nl.copy(ps))
    return res
