# nki-case: args=128x512:float32
# Wants the row maximum but uses the element-wise nl.maximum into a [128, 1] buffer.
# Fix: reduce along the free axis with nl.max(..., keepdims=True).
# expect-output: in0.max(axis=1, keepdims=True)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def row_max(x):
    res = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    mx = nl.ndarray((128, 1), dtype=x.dtype, buffer=nl.sbuf)
    mx[...] = nl.max(xt, axis=1, keepdims=True)
    nl.store(res, value=mx)
    return res
