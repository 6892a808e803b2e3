# nki-case: args=128x256:float32
# Keeps per-row sums in a 1-D SBUF buffer.
# On-chip tensors need at least two dimensions (partition + free).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def row_sums_1d(x):
    res = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    sums = nl.ndarray((128,), dtype=nl.float32, buffer=nl.sbuf)  # expect-error: insufficient_rank  # expect-col: 12
    sums[...] = nl.sum(nl.load(x), axis=1, keepdims=True)
    nl.store(res, value=sums)
    return res
