# nki-case: args=32x64:float32
# activation_reduce: exp(scale * x) and its per-partition sum in reduce_res.
# expect-output: (np.exp(in0 * 0.5), np.exp(in0 * 0.5).sum(1, keepdims=True))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def k(x):
    t = nl.load(x)
    rr = nl.ndarray((32, 1), dtype=nl.float32, buffer=nl.sbuf)
    r = nisa.activation_reduce(op=nl.exp, data=t, reduce_op=np.add, reduce_res=rr, scale=0.5)
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    o2 = nl.ndarray((32, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    nl.store(o2, rr)
    return out, o2
