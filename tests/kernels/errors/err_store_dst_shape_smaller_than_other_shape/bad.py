# nki-case: args=128x512:float32
# Wants the row maximum but uses the element-wise nl.maximum into a [128, 1] buffer.
# The [128, 512] result cannot be assigned into the [128, 1] destination.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def row_max(x):
    res = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    mx = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.sbuf)
    mx[...] = nl.maximum(xt, mx)  # expect-error: err_store_dst_shape_smaller_than_other_shape  # expect-col: 5
    nl.store(res, value=mx)
    return res
