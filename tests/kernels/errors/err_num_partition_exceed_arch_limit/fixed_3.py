# nki-case: args=64x256:float32
# Transposes a 64x256 matrix with one transposing load; the result would need 256 partitions.
# Fix: transpose 128 columns at a time.
# expect-output: in0.T
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def transpose_wide(x):
    res = nl.ndarray((256, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    for j in nl.affine_range(2):
        xt = nl.load_transpose2d(x[:, j * 128:(j + 1) * 128])
        nl.store(res[j * 128:(j + 1) * 128, :], value=xt)
    return res
