# nki-case: args=512x128:float32
# Running element-wise max over row blocks, updated in place inside an affine_range loop.
# Fix: a carried dependency needs nl.sequential_range.
# expect-output: in0.reshape(4, 128, 128).max(axis=0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def block_max(x):
    res = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    best = nl.load(x[0:128, :])
    for k in nl.sequential_range(1, 4):
        t = nl.load(x[k * 128:(k + 1) * 128, :])
        best[...] = nl.maximum(best, t)
    nl.store(res, value=best)
    return res
