# nki-case: args=128x256:float32
# Writes the ReLU result back into the input with a DMA copy.
# Fix: write into a fresh shared_hbm output instead of the (immutable) input.
# expect-output: np.maximum(in0, 0.0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def relu_overwrite(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)
    y = nl.relu(xt)
    nisa.dma_copy(dst=res, src=y)
    return res
