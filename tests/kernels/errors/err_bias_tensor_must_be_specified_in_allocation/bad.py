# nki-case: args=128x512:float32
# Direct-allocation kernel calling nisa.activation without a bias tile.
# In allocated kernels the activation bias must be an explicitly allocated tile.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.compiler as ncc


@nki.jit
def alloc_exp(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    x_sb = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=0))
    x_sb[...] = nl.load(x)
    e_sb = nl.ndarray((nl.par_dim(128), 512), dtype=x.dtype, buffer=ncc.sbuf.mod_alloc(base_addr=2048))
    e_sb[...] = nisa.activation(op=nl.exp, data=x_sb)  # expect-error: err_bias_tensor_must_be_specified_in_allocation  # expect-col: 17
    nl.store(res, value=e_sb)
    return res
