# nki-case: args=100x256:float32
# Pads 100 rows up to 128 by pre-filling the HBM output with -1 via nl.full.
# HBM tensors cannot carry an initial value.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def pad_rows(x):
    res = nl.full((128, 256), -1.0, dtype=x.dtype, buffer=nl.shared_hbm)  # expect-error: err_hbm_tensor_with_init_value_not_supported  # expect-col: 11
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(256)[None, :]
    t = nl.load(x[i_p, i_f], mask=(i_p < 100))
    nl.store(res[i_p, i_f], value=t, mask=(i_p < 100))
    return res
