# nki-case: args=128x64:float32
# nisa.tensor_scalar_cumulative with reduce_cmd=load_reduce loads imm1 into the accumulator
# (HEAD nki/api/nki/isa/__init__.py); without imm1 there is no initial value.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_sum(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    r = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=r, src=xt, op0=nl.add, op1=nl.add, imm0=0.0, reduce_cmd=nisa.reduce_cmd.load_reduce)  # expect-error: invalid_arguments  # expect-col: 5
    nl.store(out, value=r)
    return out
