# nki-case: args=256x512:float32
# Loads the whole 256-row input as one tile.
# A tile may span at most 128 partitions (nl.tile_size.pmax).
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def exp_all(x):
    res = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    xt = nl.load(x)  # expect-error: err_num_partition_exceed_arch_limit  # expect-col: 10
    nl.store(res, value=nl.exp(xt))
    return res
