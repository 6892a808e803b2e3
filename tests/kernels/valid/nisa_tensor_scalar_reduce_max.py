# nki-case: args=32x64:float32
# tensor_scalar_reduce: x - 1 and its per-partition max in reduce_res.
# expect-output: ((in0 - 1.0), (in0 - 1.0).max(1, keepdims=True))
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa

@nki.jit
def k(x):
    t = nl.load(x)
    rr = nl.ndarray((32, 1), dtype=nl.float32, buffer=nl.sbuf)
    r = nisa.tensor_scalar_reduce(data=t, op0=np.subtract, operand0=1.0, reduce_op=np.max, reduce_res=rr)
    out = nl.ndarray((32, 64), dtype=nl.float32, buffer=nl.shared_hbm)
    o2 = nl.ndarray((32, 1), dtype=nl.float32, buffer=nl.shared_hbm)
    nl.store(out, r)
    nl.store(o2, rr)
    return out, o2
