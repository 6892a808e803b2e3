# nki-case: args=128x256:float32
# Column products across partitions with tensor_partition_reduce(np.multiply).
# Error: tensor_partition_reduce supports add, max, bitwise_or and bitwise_and only.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def column_reduce(x):
    out = nl.ndarray((1, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    r = nisa.tensor_partition_reduce(np.multiply, nl.load(x))  # expect-error: invalid_alu_op  # expect-col: 9
    nl.store(out, value=r)
    return out
