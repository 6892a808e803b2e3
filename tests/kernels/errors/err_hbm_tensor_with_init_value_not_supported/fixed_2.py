# nki-case: args=100x256:float32
# Pads 100 rows up to 128 by pre-filling the HBM output with -1 via nl.full.
# Fix: allocate with nl.ndarray and store the fill value explicitly first.
# expect-output: np.concatenate([in0, np.full((28, 256), -1.0, dtype=np.float32)])
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def pad_rows(x):
    res = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    nl.store(res, value=-1.0)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(256)[None, :]
    t = nl.load(x[i_p, i_f], mask=(i_p < 100))
    nl.store(res[i_p, i_f], value=t, mask=(i_p < 100))
    return res
