# nki-case: args=128x256:float32,1x256:float32
# exp(x + b) with a per-column bias row broadcast to a [128, 256] bias tile.
# Fix: add the per-column bias with nl.add, then apply exp.
# expect-output: np.exp(in0 + in1)
# expect-tol: rtol=1e-3 atol=1e-3
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_plus_bias(x, b):
    out = nl.ndarray((128, 256), dtype=x.dtype, buffer=nl.shared_hbm)
    bt = nl.load(b).broadcast_to((128, 256))
    y = nisa.activation(op=nl.exp, data=nl.add(nl.load(x), bt))
    nl.store(out, value=y)
    return out
