# nki-case: args=128x512:float32
# Row sums of exp(x) with activation_reduce into a reduce_res of the wrong partition count.
# Fix: a [128, 1] reduce_res.
# expect-output: np.exp(in0).sum(axis=1, keepdims=True)
# expect-tol: rtol=1e-3 atol=1e-2
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_row_sums(x):
    out = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    sums = nl.ndarray((128, 1), dtype=nl.float32)
    e = nisa.activation_reduce(op=nl.exp, data=xt, reduce_op=nl.add, reduce_res=sums)
    nl.store(out, value=sums)
    return out
