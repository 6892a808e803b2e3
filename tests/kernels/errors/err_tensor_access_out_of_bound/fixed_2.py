# nki-case: args=128x512:float32
# Column differences x[:, j+1] - x[:, j], reading one column past the end.
# Fix: there are only 511 differences; iterate i_f over [0, 511).
# expect-output: np.diff(in0, axis=1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def col_diff(x):
    W = 511
    res = nl.ndarray((128, W), dtype=x.dtype, buffer=nl.shared_hbm)
    i_p, i_f = nl.mgrid[0:128, 0:W]
    right = nl.load(x[i_p, i_f + 1])
    left = nl.load(x[i_p, i_f])
    nl.store(res, value=nl.subtract(right, left))
    return res
