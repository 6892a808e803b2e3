# nki-case: args=128x512:float32
# A module-level infinite loop: the evaluation budget is spent before any kernel is defined
# (was reported as "no @nki.jit kernel found").
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

n = 0
while True: n += 1  # expect-error: evaluation_budget


@nki.jit
def after_loop(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.load(x))
    return res
