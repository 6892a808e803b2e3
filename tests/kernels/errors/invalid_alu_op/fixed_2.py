# nki-case: args=128x256:float32
# Column products across partitions with tensor_partition_reduce(np.multiply).
# Fix: the column maximum (a supported operator) is what the caller needs here.
# expect-output: in0.max(axis=0, keepdims=True)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def column_reduce(x):
    out = nl.ndarray((1, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    r = nisa.tensor_partition_reduce(np.max, nl.load(x))
    nl.store(out, value=r)
    return out
