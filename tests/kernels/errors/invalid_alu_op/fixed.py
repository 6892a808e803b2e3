# nki-case: args=128x64:float32 init0=rand(0.5,1.5)
# nisa.tensor_scalar_cumulative's op1 (the cumulative operator) must be add, subtract, multiply,
# max or min (HEAD nki/api/nki/isa/__init__.py); fixed: a running product.
# expect-output: np.multiply.accumulate(in0, axis=1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_quotient(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    r = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=r, src=xt, op0=nl.add, op1=nl.multiply, imm0=0.0)
    nl.store(out, value=r)
    return out
