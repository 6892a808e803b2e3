# nki-case: args=128x64:int16 init0=randint(0,4)
# Fix of bad.py: int16 is an allowed dtype of nisa.tensor_scalar_cumulative.
# expect-output: np.cumsum(in0, axis=1)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_count(x):
    out = nl.ndarray(x.shape, dtype=nl.int16, buffer=nl.shared_hbm)
    xt = nl.load(x)
    r = nl.ndarray(x.shape, dtype=nl.int16, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=r, src=xt, op0=nl.add, op1=nl.add, imm0=0.0)
    nl.store(out, value=r)
    return out
