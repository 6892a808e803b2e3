# nki-case: args=1x16:int32
# Builds a column-position row and overwrites one entry directly in the mgrid index.
# `col` is an index expression, not a tile; it cannot be assigned into.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def ramp_with_sentinel(x):
    res = nl.ndarray((1, 16), dtype=nl.int32, buffer=nl.shared_hbm)
    _, col = nl.mgrid[0:1, 0:16]
    col[0, 3] = 100  # expect-error: err_cannot_assign_to_index  # expect-col: 5
    ramp = nisa.iota(col, dtype=nl.int32)
    xt = nl.load(x)
    nl.store(res, value=nl.add(xt, ramp))
    return res
