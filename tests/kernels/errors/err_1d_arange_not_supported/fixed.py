# nki-case: args=128x256:float32
# A row-wise exp kernel that builds its partition index with a bare 1-D nl.arange.
# Fix: lift the partition index to a column vector with [:, None].
# expect-output: np.exp(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def rowwise_exp(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    rows = nl.arange(128)[:, None]
    cols = nl.arange(256)[None, :]
    tile = nl.load(x[rows, cols])
    nl.store(res, value=nl.exp(tile))
    return res
