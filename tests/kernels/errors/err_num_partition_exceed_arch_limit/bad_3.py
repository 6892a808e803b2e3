# nki-case: args=64x256:float32
# Transposes a 64x256 matrix with one transposing load; the result would need 256 partitions.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def transpose_wide(x):
    res = nl.ndarray((256, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load_transpose2d(x)  # expect-error: err_num_partition_exceed_arch_limit  # expect-col: 10
    nl.store(res, value=xt)
    return res
