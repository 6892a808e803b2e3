# nki-case: args=256x64:float32
# Stages all 256 rows in one SBUF buffer with 256 partitions.
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def quarter(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    buf = nl.ndarray((256, 64), dtype=x.dtype, buffer=nl.sbuf)  # expect-error: err_num_partition_exceed_arch_limit  # expect-col: 11
    for i in nl.affine_range(2):
        buf[i * 128:(i + 1) * 128, :] = nl.load(x[i * 128:(i + 1) * 128, :])
    for i in nl.affine_range(2):
        scaled = nl.multiply(buf[i * 128:(i + 1) * 128, :], 0.25)
        nl.store(res[i * 128:(i + 1) * 128, :], value=scaled)
    return res
