# nki-case: args=256x512:float32
# Loads the whole 256-row input as one tile.
# Fix: tile the rows into blocks of 128 partitions.
# expect-output: np.exp(in0)
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_all(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(x.shape[0] // 128):
        xt = nl.load(x[i * 128:(i + 1) * 128, :])
        nl.store(res[i * 128:(i + 1) * 128, :], value=nl.exp(xt))
    return res
