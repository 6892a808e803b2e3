# nki-case: args=128x64:float32
# Creates an epsilon tile at module import time, outside any kernel.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

EPS = nl.full((128, 1), 1e-6, dtype=nl.float32)  # expect-error: err_nki_api_outside_of_nki_kernel  # expect-col: 7


@nki.jit
def add_eps(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=nl.add(nl.load(x), EPS))
    return res
