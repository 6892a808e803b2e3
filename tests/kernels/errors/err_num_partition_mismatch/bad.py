# nki-case: args=128x512:float32,1x512:float32
# Adds a bias row to every row with nisa.tensor_tensor.
# tensor_tensor needs equal partition counts: [128, 512] vs [1, 512].
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def add_bias_row(x, bias):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    bt = nl.load(bias)
    y = nisa.tensor_tensor(xt, bt, op=nl.add)  # expect-error: err_num_partition_mismatch  # expect-col: 9
    nl.store(res, value=y)
    return res
