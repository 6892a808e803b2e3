# nki-case: args=128x256:float32
# exp(x + 3) on ScalarE with an integer bias column.
# The bias tile is int32; activation only takes float32/float16/bfloat16 bias vectors.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def shifted_exp(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    shift = nl.full((128, 1), 3, dtype=nl.int32, buffer=nl.sbuf)
    y = nisa.activation(op=nl.exp, data=xt, bias=shift)  # expect-error: err_activation_bias_invalid_type  # expect-col: 9
    nl.store(res, value=y)
    return res
