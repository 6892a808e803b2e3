# nki-case: args=128x64:float32
# Fix of bad.py: imm1 gives the initial accumulator value for load_reduce.
# expect-output: np.cumsum(in0, axis=1) + 10.0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_sum(x):
    out = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    r = nl.ndarray(x.shape, dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=r, src=xt, op0=nl.add, op1=nl.add, imm0=0.0, imm1=10.0,
                                  reduce_cmd=nisa.reduce_cmd.load_reduce)
    nl.store(out, value=r)
    return out
