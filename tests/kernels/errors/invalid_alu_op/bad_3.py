# nki-case: args=128x512:float32,128x512:float32
# Combines two float tiles with a bitwise_and tensor_tensor (meant as a logical AND of x > 0 and y > 0).
# Error: bitvec operators need integer tiles.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def both_positive(x, y):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    xt = nl.load(x)
    yt = nl.load(y)
    r = nisa.tensor_tensor(xt, yt, op=nl.bitwise_and)  # expect-error: invalid_alu_op  # expect-col: 9
    nl.store(out, value=r)
    return out
