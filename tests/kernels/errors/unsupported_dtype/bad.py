# nki-case: args=128x64:int32
# nisa.tensor_scalar_cumulative: INT32/UINT32 are not supported input/output dtypes (ISA
# limitation stated in HEAD nki/api/nki/isa/__init__.py).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def running_count(x):
    out = nl.ndarray(x.shape, dtype=nl.int32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    r = nl.ndarray(x.shape, dtype=nl.int32, buffer=nl.sbuf)
    nisa.tensor_scalar_cumulative(dst=r, src=xt, op0=nl.add, op1=nl.add, imm0=0.0)  # expect-error: unsupported_dtype  # expect-col: 5
    nl.store(out, value=r)
    return out
