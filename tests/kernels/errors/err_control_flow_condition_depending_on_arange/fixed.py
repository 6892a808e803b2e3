# nki-case: args=128x1000:float32
# Ragged column tiling guarded by a Python `if` on an arange-derived column index.
# Fix: drop the `if`; the masks already guard the ragged tail.
# expect-output: in0 * 3.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def triple_ragged(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    n_cols = x.shape[1]
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(512)[None, :]
    for j in nl.affine_range((n_cols + 511) // 512):
        col = j * 512 + i_f
        t = nl.load(x[i_p, col], mask=(col < n_cols))
        nl.store(res[i_p, col], value=nl.multiply(t, 3.0), mask=(col < n_cols))
    return res
