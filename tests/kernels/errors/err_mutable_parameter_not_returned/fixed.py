# nki-case: args=128x256:float32,128x256:float32
# Writes a cache parameter declared mutable but only returns the main result.
# Fix: return the mutated parameter too.
# expect-output: (in0 * 0.5, in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt


@nki.jit
def halve_and_cache(x, cache: nt.mutable_tensor):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    nl.store(res, value=nl.multiply(xt, 0.5))
    nl.store(cache, value=xt)
    return res, cache
