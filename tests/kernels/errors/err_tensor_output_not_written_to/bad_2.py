# nki-case: args=128x128:float32
# Computes exp on-chip but never creates, writes or returns an output.
# The diagnostic is expected on the kernel's `def` line.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_nowhere(x):  # expect-error: err_tensor_output_not_written_to  # expect-col: 1
    xt = nl.load(x)
    y = nl.exp(xt)
