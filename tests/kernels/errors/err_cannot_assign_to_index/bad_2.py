# nki-case: args=128x64:float32
# Tries to knock column 0 out of a comparison mask by assigning into the mask.
# A mask built from index expressions is read-only.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def keep_middle_columns(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    i_p, i_f = nl.mgrid[0:128, 0:64]
    xt = nl.load(x)
    keep = i_f < 32
    keep[0, 0] = False  # expect-error: err_cannot_assign_to_index  # expect-col: 5
    nl.store(res, value=nl.zeros((128, 64), dtype=x.dtype, buffer=nl.sbuf))
    nl.store(res[i_p, i_f], value=xt, mask=keep)
    return res
