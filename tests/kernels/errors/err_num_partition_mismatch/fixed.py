# nki-case: args=128x512:float32,1x512:float32
# Adds a bias row to every row with nisa.tensor_tensor.
# Fix: broadcast the bias row across the partitions explicitly.
# expect-output: in0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def add_bias_row(x, bias):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    bt = nl.load(bias)
    y = nisa.tensor_tensor(xt, bt.broadcast_to((128, 512)), op=nl.add)
    nl.store(res, value=y)
    return res
