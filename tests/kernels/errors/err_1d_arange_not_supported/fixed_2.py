# nki-case: args=64x32:float32
# Takes column 0 of an SBUF tile using a 1-D arange for the partition axis.
# Fix: give the arange a trailing axis so the result is a [64, 1] tile.
# expect-output: in0[:, 0:1] * 2.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def first_column_doubled(x):
    res = nl.ndarray((64, 1), dtype=x.dtype, buffer=nl.shared_hbm)
    full = nl.load(x)
    p = nl.arange(64)[:, None]
    col0 = nl.multiply(full[p, 0], 2.0)
    nl.store(res, value=col0)
    return res
