# nki-case: args=128x128:float32,128x1024:float32
# a.T @ b on TensorE with a 1024-wide moving operand.
# The moving (right) operand's free size is limited to 512 (nl.tile_size.gemm_moving_fmax).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def wide_moving(a, b):
    res = nl.ndarray((128, 1024), dtype=a.dtype, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    b_sb = nl.load(b)
    ps = nisa.nc_matmul(a_sb, b_sb)  # expect-error: matmul_moving_fmax  # expect-col: 10
    nl.store(res, value=nl.copy(ps))
    return res
