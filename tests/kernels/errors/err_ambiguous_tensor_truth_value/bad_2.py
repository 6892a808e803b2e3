# nki-case: args=128x256:float32
# Keeps values inside (-1, 1) using Python `and` between two comparison tiles.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def clip_band(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    inside = (xt > -1.0) and (xt < 1.0)  # expect-error: err_ambiguous_tensor_truth_value  # expect-col: 14
    y = nl.where(inside, xt, 0.0)
    nl.store(res, value=y)
    return res
