# nki-case: args=128x64:float32
# Tries to knock column 0 out of a comparison mask by assigning into the mask.
# Fix: express the extra condition in the mask itself.
# expect-output: np.where((np.arange(64) < 32) & (np.arange(64) > 0), in0, 0.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def keep_middle_columns(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p, i_f = nl.mgrid[0:128, 0:64]
    xt = nl.load(x)
    keep = (i_f < 32) & (i_f > 0)
    nl.store(res, value=nl.zeros((128, 64), dtype=x.dtype, buffer=nl.sbuf))
    nl.store(res[i_p, i_f], value=xt, mask=keep)
    return res
