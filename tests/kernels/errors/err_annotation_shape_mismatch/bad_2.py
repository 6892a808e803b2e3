# nki-case: args=128x512:float32
# Row sums annotated as a [128, 512] tile although the reduction leaves one column.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
from neuronxcc.nki.typing import tensor


@nki.jit
def row_sums(x):
    res = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    total: tensor[128, 512] = nl.sum(xt, axis=1, keepdims=True)  # expect-error: err_annotation_shape_mismatch  # expect-col: 31
    nl.store(res, value=total)
    return res
