# nki-case: args=128x64:float32,128x256:float32
# x @ y with nl.matmul where x is [128, 64] and y has 128 rows: x's free size must equal y's partitions.
# Error: nl.matmul(x, y) lowers to nc_matmul(transpose(x), y), whose operands need the same partition count.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def xt_y(x, y):
    res = nl.ndarray((64, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    ps = nl.matmul(nl.load(x), nl.load(y))  # expect-error: err_num_partition_mismatch  # expect-col: 10
    nl.store(res, value=nl.copy(ps))
    return res
