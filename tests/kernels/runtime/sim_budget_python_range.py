# nki-case: args=128x512:float32
# Plain Python range in a kernel is a sequential device loop (SDK 2.24 programming model), so
# range(10**12) with a load in its body compiles; the simulated work is 10^12 tile loads.
# expect-runtime-error: sim_budget
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def many_loads(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in range(10**12):  # expect-runtime-error: sim_budget
        t = nl.load(x)
    nl.store(res, value=nl.load(x))
    return res
