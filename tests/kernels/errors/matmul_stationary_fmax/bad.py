# nki-case: args=128x256:float32,128x512:float32
# a.T @ b on TensorE with a 256-wide stationary operand.
# The stationary (left) operand's free size is limited to 128 (nl.tile_size.gemm_stationary_fmax).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def wide_stationary(a, b):
    res = nl.ndarray((256, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    b_sb = nl.load(b)
    a_sb = nl.load(a)
    ps = nisa.nc_matmul(a_sb, b_sb)  # expect-error: matmul_stationary_fmax  # expect-col: 10
    nl.store(res, value=nl.copy(ps))
    return res
