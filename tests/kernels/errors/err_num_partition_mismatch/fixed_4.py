# nki-case: args=128x256:float32,128x256:float32
# Computes (x + 1) * y with scalar_tensor_tensor, loading only 64 rows of y.
# Fix: load all 128 rows of y.
# expect-output: (in0 + 1.0) * in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def fused_add_mul(x, y):
    out = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.load(y)
    r = nisa.scalar_tensor_tensor(data=xt, op0=nl.add, operand0=1.0, op1=nl.multiply, operand1=yt)
    nl.store(out, value=r)
    return out
