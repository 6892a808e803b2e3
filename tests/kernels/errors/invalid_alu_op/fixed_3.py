# nki-case: args=128x512:float32,128x512:float32
# Combines two float tiles with a bitwise_and tensor_tensor (meant as a logical AND of x > 0 and y > 0).
# Fix: compare first (bool tiles), then AND them.
# expect-output: ((in0 > 0) & (in1 > 0)).astype(np.float32)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def both_positive(x, y):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.load(y)
    r = nisa.tensor_tensor(nl.greater(xt, 0.0), nl.greater(yt, 0.0), op=nl.logical_and, dtype=nl.float32)
    nl.store(out, value=r)
    return out
