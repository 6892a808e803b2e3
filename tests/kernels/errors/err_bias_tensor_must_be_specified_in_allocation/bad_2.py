# nki-case: args=128x256:float32
# Direct-allocation kernel using nl.tanh, which lowers to an activation without a bias.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def alloc_tanh(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    x_sb = nl.ndarray((nl.par_dim(128), 256), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    x_sb[...] = nl.load(x)
    y_sb = nl.ndarray((nl.par_dim(128), 256), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=1024))
    y_sb[...] = nl.tanh(x_sb)  # expect-error: err_bias_tensor_must_be_specified_in_allocation  # expect-col: 17
    nl.store(res, value=y_sb)
    return res
