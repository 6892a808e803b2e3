# nki-case: args=512x128:float32
# Running element-wise max over row blocks, updated in place inside an affine_range loop.
# `best[...] = ...` writes the same SBUF location in every iteration (a loop-carried dependency).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def block_max(x):
    res = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    best = nl.load(x[0:128, :])
    for k in nl.affine_range(1, 4):
        t = nl.load(x[k * 128:(k + 1) * 128, :])
        best[...] = nl.maximum(best, t)  # expect-error: err_unexpected_output_dependencies  # expect-col: 9
    nl.store(res, value=best)
    return res
