# nki-case: args=128x512:float32
# Creates the output with nl.zeros in shared HBM "to be safe".
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def relu_kernel(x):
    res = nl.zeros(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)  # expect-error: err_hbm_tensor_with_init_value_not_supported  # expect-col: 11
    nl.store(res, value=nl.relu(nl.load(x)))
    return res
