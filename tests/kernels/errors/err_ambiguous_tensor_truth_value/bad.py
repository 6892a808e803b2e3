# nki-case: args=128x128:float32
# Builds a "non-positive" mask with Python `not`.
# `not` asks for the truth value of a 128x128 tile.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def zero_non_positive(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    nonpos = not (xt > 0)  # expect-error: err_ambiguous_tensor_truth_value  # expect-col: 14
    y = nl.where(nonpos, 0.0, xt)
    nl.store(res, value=y)
    return res
