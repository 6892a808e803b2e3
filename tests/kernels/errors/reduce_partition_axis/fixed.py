# nki-case: args=128x256:float32
# Column sums via nl.sum(axis=0): reducing over the partition axis.
# Fix: reduce across partitions with nisa.tensor_partition_reduce.
# expect-output: in0.sum(axis=0, keepdims=True)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def col_sums(x):
    res = nl.ndarray((1, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    s = nisa.tensor_partition_reduce(np.add, xt)
    nl.store(res, value=s)
    return res
