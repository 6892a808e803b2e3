# nki-case: args=128x256:float32
# The annotation claims the loaded tile is [128, 512], but the input row block is only 256 wide.
# Fix: annotate the real tile shape.
# expect-output: in0 * in0
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.typing as nt


@nki.jit
def square_rows(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt: nt.tensor[128, 256] = nl.load(x)
    nl.store(res, value=nl.square(xt))
    return res
