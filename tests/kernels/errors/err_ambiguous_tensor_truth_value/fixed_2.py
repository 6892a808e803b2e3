# nki-case: args=128x256:float32
# Keeps values inside (-1, 1) using Python `and` between two comparison tiles.
# Fix: use & to combine the two boolean tiles element-wise.
# expect-output: np.where((in0 > -1.0) & (in0 < 1.0), in0, 0.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def clip_band(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    inside = (xt > -1.0) & (xt < 1.0)
    y = nl.where(inside, xt, 0.0)
    nl.store(res, value=y)
    return res
