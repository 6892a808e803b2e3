# nki-case: args=1x16:int32
# Builds a column-position row and overwrites one entry directly in the mgrid index.
# Fix: materialise the index with nisa.iota first, then assign into the tile.
# expect-output: in0 + np.where(np.arange(16) == 3, 100, np.arange(16)).astype(np.int32)[None, :]
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def ramp_with_sentinel(x):
    res = nl.ndarray((1, 16), dtype=nl.int32, buffer=nl.shared_hbm)
    _, col = nl.mgrid[0:1, 0:16]
    ramp = nisa.iota(col, dtype=nl.int32)
    ramp[0, 3] = 100
    xt = nl.load(x)
    nl.store(res, value=nl.add(xt, ramp))
    return res
