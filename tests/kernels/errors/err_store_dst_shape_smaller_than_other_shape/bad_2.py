# nki-case: args=128x256:float32
# Copies a full 128-row tile into a 64-row buffer meant to hold only the top half.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def top_half(x):
    res = nl.ndarray((64, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    half = nl.ndarray((64, 256), dtype=x.dtype, buffer=nl.sbuf)
    half[...] = xt  # expect-error: err_store_dst_shape_smaller_than_other_shape  # expect-col: 5
    nl.store(res, value=half)
    return res
