# nki-case: args=128x256:float32
# Writes the ReLU result back into the input with a DMA copy.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def relu_overwrite(x):
    xt = nl.load(x)
    y = nl.relu(xt)
    nisa.dma_copy(dst=x, src=y)  # expect-error: err_cannot_update_immutable_parameter  # expect-col: 5
    return x
