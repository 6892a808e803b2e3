# nki-case: args=128x64:float32
# nisa.tensor_scalar_cumulative's op1 (the cumulative operator) must be add, subtract, multiply,
# max or min (HEAD nki/api/nki/isa/__init__.py); divide is rejected.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_quotient(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    r = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=r, src=xt, op0=nl.add, op1=nl.divide, imm0=0.0)  # expect-error: invalid_alu_op  # expect-col: 5
    nl.store(out, value=r)
    return out
