# nki-case: args=128x4x64:float32,128x4x64:float32
# Computes (x * 2) + y on a 3-D tile with scalar_tensor_tensor.
# Fix: one 2-D [128, 64] slice per block.
# expect-output: in0 * 2.0 + in1
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def fused_3d(x, y):
    out = nl.ndarray((128, 4, 64), dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.load(y)
    for b in nl.affine_range(4):
        r = nisa.scalar_tensor_tensor(data=xt[:, b, :], op0=nl.multiply, operand0=2.0, op1=nl.add, operand1=yt[:, b, :])
        nl.store(out[:, b, :], value=r)
    return out
