# nki-case: args=128x64:float32,128x512:float32
# Computes a.T @ b on TensorE but loads only half of b's contraction rows.
# nc_matmul needs both operands to have the same partition (contraction) size.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def at_b(a, b):
    res = nl.ndarray((64, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    a_sb = nl.load(a)
    b_sb = nl.load(b[0:64, :])
    ps = nisa.nc_matmul(a_sb, b_sb)  # expect-error: err_num_partition_mismatch  # expect-col: 10
    nl.store(res, value=nl.copy(ps, dtype=a.dtype))
    return res
