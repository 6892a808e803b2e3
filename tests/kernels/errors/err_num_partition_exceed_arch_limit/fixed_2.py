# nki-case: args=256x64:float32
# Stages all 256 rows in one SBUF buffer with 256 partitions.
# Fix: keep 128 partitions and fold the two row blocks into a free dimension.
# expect-output: in0 * 0.25
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def quarter(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    buf = nl.ndarray((128, 2, 64), dtype=x.dtype, buffer=nl.sbuf)
    for i in nl.affine_range(2):
        buf[:, i, :] = nl.load(x[i * 128:(i + 1) * 128, :])
    for i in nl.affine_range(2):
        scaled = nl.multiply(buf[:, i, :], 0.25)
        nl.store(res[i * 128:(i + 1) * 128, :], value=scaled)
    return res
