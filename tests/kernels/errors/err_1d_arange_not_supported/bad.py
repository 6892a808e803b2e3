# nki-case: args=128x256:float32
# expect-message: 1d arange
# expect-hint: nl.arange(n)[:, None]
# A row-wise exp kernel that builds its partition index with a bare 1-D nl.arange.
# The partition index is 1-D, so the load subscript cannot be lifted to a 2-D tile.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def rowwise_exp(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    rows = nl.arange(128)
    cols = nl.arange(256)[None, :]
    tile = nl.load(x[rows, cols])  # expect-error: err_1d_arange_not_supported  # expect-col: 20
    nl.store(res, value=nl.exp(tile))
    return res
