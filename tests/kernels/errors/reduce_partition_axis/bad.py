# nki-case: args=128x256:float32
# Column sums via nl.sum(axis=0): reducing over the partition axis.
# nl.sum/max/... reduce free axes only (axis 0 is the partition dim).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def col_sums(x):
    res = nl.ndarray((1, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    s = nl.sum(xt, axis=0, keepdims=True)  # expect-error: reduce_partition_axis  # expect-col: 9
    nl.store(res, value=s)
    return res
