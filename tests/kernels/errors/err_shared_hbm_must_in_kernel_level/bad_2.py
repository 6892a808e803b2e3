# nki-case: args=256x128:float32
# Round-trips each block through a shared_hbm scratch tensor created inside the loop.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_via_scratch(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        scratch = nl.ndarray((128, 128), dtype=x.dtype, buffer=nl.shared_hbm)  # expect-error: err_shared_hbm_must_in_kernel_level  # expect-col: 19
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        nl.store(scratch, value=nl.exp(t))
        nl.store(res[i * 128:(i + 1) * 128, :], value=nl.load(scratch))
    return res
