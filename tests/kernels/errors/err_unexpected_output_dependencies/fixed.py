# nki-case: args=512x128:float32
# Scales four row blocks in an affine_range loop but always stores into rows 0..127.
# Fix: index the destination with the loop variable.
# expect-output: in0 * 0.5
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def halve_blocks(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        nl.store(res[i * 128:(i + 1) * 128, :], value=nl.multiply(t, 0.5))
    return res
