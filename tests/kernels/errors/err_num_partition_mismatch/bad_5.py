# nki-case: args=128x512:float32
# Row sums of exp(x) with activation_reduce into a reduce_res of the wrong partition count.
# Error: reduce_res must have data's partition count, one element per partition.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_row_sums(x):
    out = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    sums = nl.ndarray((1, 128), dtype=nl.float32)
    e = nisa.activation_reduce(op=nl.exp, data=xt, reduce_op=nl.add, reduce_res=sums)  # expect-error: err_num_partition_mismatch  # expect-col: 9
    nl.store(out, value=sums)
    return out
