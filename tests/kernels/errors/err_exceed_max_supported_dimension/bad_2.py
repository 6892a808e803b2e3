# nki-case: args=128x4x64:float32,128x4x64:float32
# Computes (x * 2) + y on a 3-D tile with scalar_tensor_tensor.
# Error: scalar_tensor_tensor takes a 2-D data tile.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def fused_3d(x, y):
    out = nl.ndarray((128, 4, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.load(y)
    r = nisa.scalar_tensor_tensor(data=xt, op0=nl.multiply, operand0=2.0, op1=nl.add, operand1=yt)  # expect-error: err_exceed_max_supported_dimension  # expect-col: 9
    nl.store(out, value=r)
    return out
