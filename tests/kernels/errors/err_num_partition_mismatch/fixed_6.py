# nki-case: args=128x64:float32,128x256:float32
# x @ y with nl.matmul where x is [128, 64] and y has 128 rows: x's free size must equal y's partitions.
# Fix: x is already [K, M]: pass transpose_x=True (computes x.T @ y).
# expect-output: in0.T @ in1
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def xt_y(x, y):
    res = nl.ndarray((64, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    ps = nl.matmul(nl.load(x), nl.load(y), transpose_x=True)
    nl.store(res, value=nl.copy(ps))
    return res
