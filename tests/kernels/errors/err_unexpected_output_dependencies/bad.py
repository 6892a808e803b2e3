# nki-case: args=512x128:float32
# Scales four row blocks in an affine_range loop but always stores into rows 0..127.
# Every iteration writes the same HBM region, so the iterations are not independent.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def halve_blocks(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(4):
        t = nl.load(x[i * 128:(i + 1) * 128, :])
        nl.store(res[0:128, :], value=nl.multiply(t, 0.5))  # expect-error: err_unexpected_output_dependencies  # expect-col: 9
    return res
