# nki-case: args=128x512:float32
# affine_range(10**12) of loads only.
# expect-runtime-error: sim_budget
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def affine_loads(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.load(x))
    for i in nl.affine_range(10**12):  # expect-runtime-error: sim_budget
        t = nl.load(x)
    return res
