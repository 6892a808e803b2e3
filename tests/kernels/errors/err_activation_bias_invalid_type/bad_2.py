# nki-case: args=128x64:float32,128x1:int16
# tanh(x + b) where the per-row bias b arrives as an int16 tensor and is used as-is.
# The loaded bias keeps its int16 dtype, which activation_reduce rejects.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def tanh_with_rowsum(x, b):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    bt = nl.load(b)
    acc = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
    y = nisa.activation_reduce(op=nl.tanh, data=xt, bias=bt, reduce_op=nl.add, reduce_res=acc)  # expect-error: err_activation_bias_invalid_type  # expect-col: 9
    nl.store(res, value=y)
    return res
