# nki-case: args=128x512:float32
# Direct-allocation kernel calling nisa.activation without a bias tile.
# Fix: allocate a [128, 1] zero bias and pass it.
# expect-output: np.exp(in0)
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
    zero_b = nl.ndarray((nl.par_dim(128), 1), dtype=nl.float32, buffer=ncc.sbuf.mod_alloc(base_addr=4096))
    zero_b[...] = nisa.memset((128, 1), 0.0, dtype=nl.float32)
    e_sb[...] = nisa.activation(op=nl.exp, data=x_sb, bias=zero_b)
    nl.store(res, value=e_sb)
    return res
