# nki-case: args=128x256:float32
# Direct-allocation kernel using nl.tanh, which lowers to an activation without a bias.
# Fix: call nisa.activation(op=nl.tanh, ...) with an allocated bias tile.
# expect-output: np.tanh(in0)
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
    zero_b = nl.ndarray((nl.par_dim(128), 1), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=2048))
    zero_b[...] = nisa.memset((128, 1), 0.0, dtype=nl.float32)
    y_sb[...] = nisa.activation(op=nl.tanh, data=x_sb, bias=zero_b)
    nl.store(res, value=y_sb)
    return res
