# nki-case: args=128x512:float32
# An empty sequential loop of 10^15 iterations compiles (its trip count is a compile-time
# constant), but simulating it would take days: the simulator refuses before running.
# expect-runtime-error: sim_budget
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def spin(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.load(x))
    for i in nl.sequential_range(10**15):  # expect-runtime-error: sim_budget
        pass
    return res
