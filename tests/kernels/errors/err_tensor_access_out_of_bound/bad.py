# nki-case: args=128x1000:float32
# Walks 1000 columns in 512-wide tiles; the last tile reads past column 999 without a mask.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def sigmoid_ragged(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    n = x.shape[1]
    for j in nl.affine_range((n + 511) // 512):
        i_p, i_f = nl.mgrid[0:128, 0:512]
        col = j * 512 + i_f
        t = nl.load(x[i_p, col])  # expect-error: err_tensor_access_out_of_bound  # expect-col: 21
        nl.store(res[i_p, col], value=nl.sigmoid(t), mask=(col < n))
    return res
