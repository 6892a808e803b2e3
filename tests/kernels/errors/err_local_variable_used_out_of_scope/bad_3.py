# nki-case: args=512x128:float32
# Copies x block by block and also wants the last block as a second output,
# reusing the loop's tile after the loop.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def copy_keep_last(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    last = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        nl.store(res[i * 128:(i + 1) * 128, :], value=t)
    nl.store(last, value=t)  # expect-error: err_local_variable_used_out_of_scope  # expect-col: 26
    return res, last
