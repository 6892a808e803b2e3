# nki-case: args=128x512:float32
# Row sums annotated as a [128, 512] tile although the reduction leaves one column.
# Fix: the reduced tile is [128, 1].
# expect-output: in0.sum(axis=1, keepdims=True)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
from neuronxcc.nki.typing import tensor


@nki.jit
def row_sums(x):
    res = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    total: tensor[128, 1] = nl.sum(xt, axis=1, keepdims=True)
    nl.store(res, value=total)
    return res
